import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { clientIp } from '../src/http/request-meta.ts';
import { createRateLimiters } from '../src/rate-limit.ts';
import type { RateLimitRule } from '../src/rate-limit.ts';
import { createTestApi } from './support/api.ts';
import { RATE_LIMIT_STORES, rateLimitFixture } from './support/engines.ts';
import { REDIS_URL, testEnv } from './support/env.ts';
import { CHECK_CODE, graphql } from './support/graphql.ts';

const TIGHT: RateLimitRule = { points: 3, duration: 60, burstPoints: 2, burstDuration: 600 };
const CHECK = { variables: { registrationCode: 'ANY-CODE' } };

describe.each(RATE_LIMIT_STORES)('registrationCodeDetails rate limit (%s)', (store, envOverrides) => {
  const { database, keyPrefix } = rateLimitFixture(store);

  it('allows the points plus the burst per IP, then answers RATE_LIMITED with a retry time', async () => {
    const env = testEnv({ ...envOverrides, TRUST_PROXY: 'true' });
    const limiters = createRateLimiters(env, { keyPrefix, rules: { registrationCodeCheck: TIGHT } });
    await limiters.ready();
    expect(limiters.store).toBe(store);
    const api = await createTestApi({ env, db: database.db, limiters });
    const from = (ip: string) => ({ ...CHECK, headers: { 'x-forwarded-for': `198.51.100.1, ${ip}` } });
    try {
      for (let i = 0; i < TIGHT.points + TIGHT.burstPoints; i++) {
        const { body } = await graphql(api.yoga, CHECK_CODE, from('203.0.113.7'));
        expect(body.errors).toBeUndefined();
      }
      const limited = await graphql(api.yoga, CHECK_CODE, from('203.0.113.7'));
      expect(limited.status).toBe(200);
      expect(limited.body.data ?? null).toBeNull();
      expect(limited.body.errors?.[0]).toMatchObject({
        message: 'Too many requests. Please try again later.',
        extensions: { code: 'RATE_LIMITED' },
      });
      const retryAfter = limited.body.errors?.[0]?.extensions?.retryAfterSeconds;
      expect(retryAfter).toBeTypeOf('number');
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(600);

      // Another client is not affected, and countryDetails is not limited.
      expect((await graphql(api.yoga, CHECK_CODE, from('203.0.113.8'))).body.errors).toBeUndefined();
      expect((await graphql(api.yoga, '{ countryDetails { country } }', from('203.0.113.7'))).body.errors).toBeUndefined();

      if (store === 'redis') {
        const redis = new Redis(REDIS_URL);
        try {
          expect(await redis.keys(`${keyPrefix}*203.0.113.7`)).not.toEqual([]);
        } finally {
          await redis.quit();
        }
      }
    } finally {
      await api.close();
      await limiters.close();
    }
  });

  it('counts aliases one by one, so they cannot be used to go around the limit', async () => {
    const env = testEnv({ ...envOverrides });
    const limiters = createRateLimiters(env, { keyPrefix: `${keyPrefix}-alias`, rules: { registrationCodeCheck: TIGHT } });
    await limiters.ready();
    const api = await createTestApi({ env, db: database.db, limiters });
    try {
      const aliases = Array.from({ length: 6 }, (_, i) => `c${i}: registrationCodeDetails(registrationCode: "X${i}") { errors }`);
      const { body } = await graphql(api.yoga, `{ ${aliases.join(' ')} }`, {
        serverContext: { req: { socket: { remoteAddress: '::ffff:192.0.2.1' } } },
      });
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['RATE_LIMITED']);
    } finally {
      await api.close();
      await limiters.close();
    }
  });
});

describe('client IP', () => {
  const headers = new Headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.9' });
  const socket = { req: { socket: { remoteAddress: '::ffff:10.0.0.2' } } };

  it('uses the socket address unless TRUST_PROXY is on', () => {
    expect(clientIp(socket, headers, false)).toBe('10.0.0.2');
    expect(clientIp({}, new Headers(), false)).toBe('unknown');
  });

  it('with TRUST_PROXY takes the address the proxy appended last, ignoring junk', () => {
    expect(clientIp(socket, headers, true)).toBe('203.0.113.9');
    expect(clientIp(socket, new Headers({ 'x-forwarded-for': 'not-an-ip' }), true)).toBe('10.0.0.2');
  });

  it('reads X-Forwarded-For from the right, one entry per trusted hop: what the client wrote on the left never counts', () => {
    const spoofed = (left: string) => new Headers({ 'x-forwarded-for': `${left}, 203.0.113.9` });
    expect(clientIp(socket, spoofed('198.51.100.1'), 1)).toBe('203.0.113.9');
    expect(clientIp(socket, spoofed('198.51.100.77'), 1)).toBe('203.0.113.9');
    // Two proxies: the outer one appended the client, the inner one the outer one's address.
    const twoHops = new Headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.1' });
    expect(clientIp(socket, twoHops, 2)).toBe('203.0.113.9');
    expect(clientIp(socket, new Headers({ 'x-forwarded-for': '203.0.113.9' }), 2)).toBe('203.0.113.9');
    expect(clientIp(socket, twoHops, 0)).toBe('10.0.0.2');
  });
});

describe('rate limiter store failure', () => {
  it('falls back to memory when Redis cannot be reached, and still limits', async () => {
    const limiters = createRateLimiters({ REDIS_URL: 'redis://127.0.0.1:1' }, {
      keyPrefix: `velvet-test-${randomUUID()}`,
      rules: { registrationCodeCheck: { points: 1, duration: 60, burstPoints: 1, burstDuration: 60 } },
    });
    try {
      expect(await limiters.registrationCodeCheck.consume('ip')).toEqual({ allowed: true, used: 1 });
      expect(await limiters.registrationCodeCheck.consume('ip')).toEqual({ allowed: true, used: 2 });
      expect(await limiters.registrationCodeCheck.consume('ip')).toMatchObject({ allowed: false });
    } finally {
      await limiters.close();
    }
  });
});
