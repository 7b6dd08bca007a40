/**
 * Redis faults and sharing (docs/decisions/027): an API whose Redis died stops in time on
 * SIGTERM (a real child process and a real redis-server the test starts and kills), and two
 * deployments with different REDIS_PREFIX values on one Redis do not see each other's rate
 * limits, registration events or feature announcements.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { featuresChannel, announceFeatureChange } from '../src/features/feature-hub.ts';
import { createApiServer } from '../src/server.ts';
import type { ApiServer } from '../src/server.ts';
import { freePort, startApiProcess, until } from './support/api-process.ts';
import { createTestDatabase } from './support/database.ts';
import type { TestDatabase } from './support/database.ts';
import { REDIS_URL, testEnv } from './support/env.ts';

/** main.ts's SHUTDOWN_GRACE_MS: after it the process gives up and exits 1. */
const SHUTDOWN_GRACE_MS = 10_000;

async function startRedisServer(): Promise<{ url: string; process: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  await until('redis-server to answer', async () => {
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG' ? true : undefined;
    } finally {
      probe.disconnect();
    }
  });
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('SIGTERM with Redis down', () => {
  it('stops the API in time, exit code 0', { timeout: 60_000 }, async () => {
    const redis = await startRedisServer();
    const database = await createTestDatabase('sqlite');
    const api = await startApiProcess({ DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_PREFIX: `velvet-test-${randomUUID()}:` });
    try {
      // Redis dies; the API keeps trying to reconnect (ioredis retries for ever).
      await redis.stop();
      const health = await fetch(`${api.url}/health`);
      expect(health.status).toBe(200);

      const stoppingAt = Date.now();
      api.child.kill('SIGTERM');
      const { code } = await api.exited;
      const stopMs = Date.now() - stoppingAt;
      expect(code, api.output()).toBe(0);
      expect(stopMs).toBeLessThan(SHUTDOWN_GRACE_MS / 2);
      expect(api.output()).not.toMatch(/graceful shutdown timed out/);
    } finally {
      await api.kill();
      await redis.stop();
      await database.close();
    }
  });
});

describe('two deployments on one Redis with different REDIS_PREFIX', () => {
  const run = randomUUID();
  const prefixes = [`velvet-test-${run}-a:`, `velvet-test-${run}-b:`] as const;
  const databases: TestDatabase[] = [];
  const apis: ApiServer[] = [];
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    for (const prefix of prefixes) {
      const database = await createTestDatabase('sqlite');
      databases.push(database);
      const env = testEnv({ REDIS_URL, REDIS_PREFIX: prefix, RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '2' });
      const api = await createApiServer({ env, db: database.db, logger: createLogger(env) });
      await Promise.all([api.limiters.ready(), api.events.ready(), api.features.ready()]);
      apis.push(api);
    }
  });
  afterAll(async () => {
    for (const api of apis) await api.close();
    for (const database of databases) await database.close();
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
  });

  const checkCode = async (api: ApiServer) => {
    const response = await api.yoga.fetch(
        'http://localhost/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ registrationCodeDetails(registrationCode: "NO-SUCH-CODE") { errors } }' }),
        },
        { req: { socket: { remoteAddress: '198.51.100.23' } } },
      );
    return (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  };

  it('keeps rate limits apart: one deployment at its limit does not limit the other', async () => {
    const [a, b] = apis as [ApiServer, ApiServer];
    let limited = false;
    for (let i = 0; i < 30 && !limited; i++) limited = (await checkCode(a)).errors?.[0]?.extensions?.code === 'RATE_LIMITED';
    expect(limited).toBe(true);
    expect((await checkCode(b)).errors).toBeUndefined();
    // Every key is under its deployment's prefix.
    expect(await redis.keys(`${prefixes[0]}rate-limit:*198.51.100.23`)).not.toEqual([]);
    expect(await redis.keys(`${prefixes[1]}rate-limit:*198.51.100.23`)).not.toEqual([]);
    expect((await redis.keys(`*${run}*`)).every((key) => prefixes.some((prefix) => key.startsWith(prefix)))).toBe(true);
  });

  it('keeps pub/sub apart: registration events and feature announcements stay in their deployment', async () => {
    const [a, b] = apis as [ApiServer, ApiServer];
    const channels = async (prefix: string) => ((await redis.call('pubsub', 'channels', `${prefix}*`)) as string[]).sort();
    expect(await channels(prefixes[0])).toEqual([`${prefixes[0]}features`, `${prefixes[0]}registration-status`]);
    expect(await channels(prefixes[1])).toEqual([`${prefixes[1]}features`, `${prefixes[1]}registration-status`]);

    const memberId = randomUUID();
    const heardByB = b.events.subscribe(memberId);
    // Redis delivers messages in the order it executed the PUBLISHes: had B heard A's event,
    // it would be B's first.
    await a.events.publish({ memberId, state: 'ACTIVE' });
    await b.events.publish({ memberId, state: 'PENDING' });
    const first = await heardByB.next();
    expect(first.value).toEqual({ memberId, state: 'PENDING' });
    await heardByB.return?.();

    // A feature announcement for deployment A reaches A's subscriber channel only.
    const listener = new Redis(REDIS_URL);
    try {
      const heard: string[] = [];
      listener.on('pmessage', (_pattern: string, channel: string) => heard.push(channel));
      await listener.psubscribe(`velvet-test-${run}-*`);
      expect(await announceFeatureChange(REDIS_URL, featuresChannel(prefixes[0]))).toBe('announced');
      await until('the announcement to arrive', () => (heard.length > 0 ? true : undefined));
      expect(heard).toEqual([`${prefixes[0]}features`]);
    } finally {
      listener.disconnect();
    }
  });
});
