/**
 * Rate limits of the public mutations per client IP, in memory and in Redis: register and
 * completeSocialRegistration (one budget), activateAccount, joinWaitlist and
 * applyForMembership (one budget).
 */
import { randomUUID } from 'node:crypto';
import { signLobbyToken, signSocialToken } from '@velvet/tokens/signed-token';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, createRateLimiters } from '../src/rate-limit.ts';
import type { RateLimitRule } from '../src/rate-limit.ts';
import { createTestApi } from './support/api.ts';
import { createTestDatabase } from './support/database.ts';
import { RATE_LIMIT_STORES, rateLimitFixture } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { ACTIVATE, REGISTER, uniqueEmail, validInput } from './support/registration.ts';

const JOIN = 'mutation j($token: String!) { joinWaitlist(token: $token) { outcome userErrors { code field messageId } } }';
const APPLY = 'mutation a($email: String!) { applyForMembership(email: $email) { accepted } }';
const CONSENT = 'mutation r($input: RecordConsentInput!) { recordConsent(input: $input) }';
const FUNNEL = 'mutation f($events: [FunnelEventInput!]!) { recordFunnelEvents(events: $events) }';
const COMPLETE = 'mutation c($input: CompleteSocialRegistrationInput!) { completeSocialRegistration(input: $input) { outcome userErrors { code field messageId } } }';

async function socialInput(registrationCode: string) {
  const token = await signSocialToken(
    { email: uniqueEmail('social'), emailVerified: true, provider: 'google', subject: randomUUID() },
    TEST_SECRET,
    900,
  );
  return {
    token,
    registrationCode,
    country: 'DE',
    newsletter: false,
    termsAccepted: true,
    termsPkString: 'terms-DE-2026-01',
    dataPolicyPkString: 'data-policy-DE-2026-01',
    language: 'en',
    shoppingPreferences: ['MEN'],
  };
}

/** Alternating calls of two mutations that share one budget. */
async function shared(first: () => Promise<[string, Record<string, unknown>]>, second: () => Promise<[string, Record<string, unknown>]>) {
  let turn = 0;
  return async () => (turn++ % 2 === 0 ? first() : second());
}

const TIGHT: RateLimitRule = { points: 2, duration: 60, burstPoints: 1, burstDuration: 600 };

describe.each(RATE_LIMIT_STORES)('mutation rate limits (%s)', (store, envOverrides) => {
  const { database, keyPrefix } = rateLimitFixture(store);

  const register = async (): Promise<[string, Record<string, unknown>]> => [
    REGISTER,
    { input: validInput((await insertCode(database.db)).code) },
  ];
  const completeSocial = async (): Promise<[string, Record<string, unknown>]> => [
    COMPLETE,
    { input: await socialInput((await insertCode(database.db)).code) },
  ];
  const join = async (): Promise<[string, Record<string, unknown>]> => [
    JOIN,
    { token: await signLobbyToken({ email: uniqueEmail('lobby') }, TEST_SECRET, 60) },
  ];
  const apply = async (): Promise<[string, Record<string, unknown>]> => [APPLY, { email: uniqueEmail('apply') }];

  it.each([
    ['register', 'register', () => register],
    ['completeSocialRegistration', 'register', () => completeSocial],
    ['register and completeSocialRegistration together', 'register', () => shared(register, completeSocial)],
    ['activateAccount', 'activateAccount', () => async (): Promise<[string, Record<string, unknown>]> => [ACTIVATE, { activationId: 'A'.repeat(43) }]],
    ['joinWaitlist', 'publicForms', () => join],
    ['applyForMembership', 'publicForms', () => apply],
    ['joinWaitlist and applyForMembership together', 'publicForms', () => shared(join, apply)],
    [
      'recordConsent',
      'consentRecords',
      () => async (): Promise<[string, Record<string, unknown>]> => [
        CONSENT,
        { input: { consentId: randomUUID(), action: 'ACCEPT_ALL', source: 'BANNER', analytics: true, marketing: true, version: 1, language: 'en' } },
      ],
    ],
    [
      'recordFunnelEvents',
      'funnelEvents',
      () => async (): Promise<[string, Record<string, unknown>]> => [FUNNEL, { events: [{ name: 'landing', sessionId: randomUUID() }] }],
    ],
  ] as const)('limits %s per IP, then answers RATE_LIMITED with a retry time', async (_label, name, makeOperation) => {
    const env = testEnv({ ...envOverrides, TRUST_PROXY: 'true' });
    const limiters = createRateLimiters(env, { keyPrefix: `${keyPrefix}:${randomUUID()}`, rules: { [name]: TIGHT } });
    await limiters.ready();
    expect(limiters.store).toBe(store);
    const api = await createTestApi({ env, db: database.db, limiters });
    const operation = await makeOperation();
    const call = async (ip: string) => {
      const [query, variables] = await operation();
      return graphql(api.yoga, query, { variables, headers: { 'x-forwarded-for': ip } });
    };
    try {
      for (let i = 0; i < TIGHT.points + TIGHT.burstPoints; i++) expect((await call('203.0.113.9')).body.errors).toBeUndefined();
      const limited = await call('203.0.113.9');
      expect(limited.status).toBe(200);
      expect(limited.body.errors?.[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
      expect(limited.body.errors?.[0]?.extensions?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect((await call('203.0.113.10')).body.errors).toBeUndefined();
    } finally {
      await api.close();
      await limiters.close();
    }
  });
});

describe('RATE_LIMIT_REGISTRATIONS_PER_MINUTE', () => {
  it('sets the per-minute registrations (the burst stays)', async () => {
    const database = await createTestDatabase('sqlite');
    const env = testEnv({ RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '3' });
    const limiters = createRateLimiters(env);
    const api = await createTestApi({ env, db: database.db, limiters });
    try {
      const { code } = await insertCode(database.db, { balance: 100 });
      const allowed = 3 + DEFAULT_RATE_LIMITS.register.burstPoints;
      for (let i = 0; i < allowed; i++) {
        const { body } = await graphql(api.yoga, REGISTER, { variables: { input: validInput(code) } });
        expect(body.errors).toBeUndefined();
      }
      const { body } = await graphql(api.yoga, REGISTER, { variables: { input: validInput(code) } });
      expect(body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    } finally {
      await api.close();
      await limiters.close();
      await database.close();
    }
  });

  it('defaults to 30 registrations (one office address is many people), 10 public forms', () => {
    expect(testEnv().RATE_LIMIT_REGISTRATIONS_PER_MINUTE).toBe(30);
    expect(testEnv().RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE).toBe(10);
    expect(DEFAULT_RATE_LIMITS.publicForms).toMatchObject({ points: 10, duration: 60 });
    expect(DEFAULT_RATE_LIMITS.register.points).toBe(30);
    expect(DEFAULT_RATE_LIMITS.activateAccount.points).toBe(20);
    expect(DEFAULT_RATE_LIMITS.adminLoginIp).toMatchObject({ points: 5, duration: 60 });
    expect(DEFAULT_RATE_LIMITS.adminLoginAccountIp).toMatchObject({ points: 10, duration: 3600 });
    expect(DEFAULT_RATE_LIMITS.adminLoginFailures).toMatchObject({ points: 30, duration: 60 });
  });
});

describe('RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE', () => {
  it('sets the per-minute waiting-list and membership-interest submissions (the burst stays)', async () => {
    const database = await createTestDatabase('sqlite');
    const env = testEnv({ RATE_LIMIT_PUBLIC_FORMS_PER_MINUTE: '2' });
    const limiters = createRateLimiters(env);
    const api = await createTestApi({ env, db: database.db, limiters });
    try {
      const allowed = 2 + DEFAULT_RATE_LIMITS.publicForms.burstPoints;
      for (let i = 0; i < allowed; i++) {
        const { body } = await graphql(api.yoga, APPLY, { variables: { email: uniqueEmail() } });
        expect(body.errors).toBeUndefined();
      }
      const { body } = await graphql(api.yoga, APPLY, { variables: { email: uniqueEmail() } });
      expect(body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    } finally {
      await api.close();
      await limiters.close();
      await database.close();
    }
  });
});
