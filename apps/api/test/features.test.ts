/**
 * Feature flags and A/B tests (ADR 012): the overrides on SQLite and PostgreSQL, the
 * GrowthBook-compatible features endpoint and stream over real HTTP, and a change reaching
 * a stream on another API instance through real Redis (or the realtime check without it).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadFeatureFile } from '@velvet/features/file';
import type { FeaturePayload } from '@velvet/features/definitions';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../src/config.ts';
import { createFeatureHub, announceFeatureChange } from '../src/features/feature-hub.ts';
import type { FeatureHub } from '../src/features/feature-hub.ts';
import { createFeaturesEndpoint } from '../src/features/features-endpoint.ts';
import { createLogger } from '../src/logger.ts';
import { createRateLimiters } from '../src/rate-limit.ts';
import { createApiServer } from '../src/server.ts';
import { createYogaApp } from '../src/http/yoga.ts';
import type { ApiServer } from '../src/server.ts';
import { readFeatureState, resetFeature, setExperiment, setFeatureValue } from '../src/features/overrides.ts';
import { createRegistrationEvents } from '../src/domain/registration-events.ts';
import { GENEROUS_LIMITS } from './support/api.ts';
import { createTestDatabase } from './support/database.ts';
import { ENGINES, engineDatabase } from './support/engines.ts';
import type { TestDatabase } from './support/database.ts';
import { REDIS_URL, testEnv } from './support/env.ts';
import { openSse } from './support/sse.ts';

const loaded = loadFeatureFile();
const KEY = 'sdk-velvet-rope';

describe.each(ENGINES)('feature overrides (%s)', (engine) => {
  const database = engineDatabase(engine, { clearAfterEach: false });
  afterEach(async () => {
    for (const key of Object.keys(loaded.file.features)) await resetFeature(database.db, loaded, key);
  });

  it('serves the versioned file until an operator overrides it, and back after a reset', async () => {
    const before = await readFeatureState(database.db, loaded);
    expect(before.features.every((f) => f.source === 'file')).toBe(true);
    expect(before.payload.features['show-onboarding']).toEqual({ defaultValue: true });

    const set = await setFeatureValue(database.db, loaded, 'show-onboarding', false);
    expect(set).toMatchObject({ ok: true, feature: { source: 'database', definition: { defaultValue: false } } });
    const during = await readFeatureState(database.db, loaded);
    expect(during.payload.features['show-onboarding']).toEqual({ defaultValue: false });
    expect(during.revision).toBe(before.revision + 1);
    expect(during.payload.dateUpdated > before.payload.dateUpdated).toBe(true);

    const reset = await resetFeature(database.db, loaded, 'show-onboarding');
    expect(reset).toMatchObject({ ok: true, removed: true, feature: { source: 'file' } });
    const after = await readFeatureState(database.db, loaded);
    expect(after.payload.features['show-onboarding']).toEqual({ defaultValue: true });
    expect(after.revision).toBe(during.revision + 1);
    expect(after.payload.dateUpdated > during.payload.dateUpdated).toBe(true);
    // Resetting what is not overridden changes nothing, not even the version.
    expect(await resetFeature(database.db, loaded, 'show-onboarding')).toMatchObject({ ok: true, removed: false });
    expect((await readFeatureState(database.db, loaded)).revision).toBe(after.revision);
  });

  it('gives every change a later version, even within one millisecond', async () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    await setFeatureValue(database.db, loaded, 'promo-banner', false, now);
    const first = (await readFeatureState(database.db, loaded)).payload.dateUpdated;
    await setFeatureValue(database.db, loaded, 'promo-banner', true, now);
    const second = (await readFeatureState(database.db, loaded)).payload.dateUpdated;
    expect(first).toBe('2030-01-01T00:00:00.000Z');
    expect(second).toBe('2030-01-01T00:00:00.001Z');
  });

  it('runs an experiment on a feature with the given split and coverage', async () => {
    const result = await setExperiment(database.db, loaded, 'top-banner-copy', { variations: ['control', 'members-first'], weights: [0.1, 0.9], coverage: 0.5 });
    expect(result.ok).toBe(true);
    const { payload } = await readFeatureState(database.db, loaded);
    expect(payload.features['top-banner-copy']).toEqual({
      defaultValue: 'control',
      rules: [
        {
          key: 'top-banner-copy',
          name: 'Top banner copy',
          variations: ['control', 'members-first'],
          weights: [0.1, 0.9],
          coverage: 0.5,
          hashAttribute: 'acqAnonymousId',
          hashVersion: 2,
          meta: [{ key: '0', name: 'control' }, { key: '1', name: 'members-first' }],
        },
      ],
    });
    // `feature set` on an experiment's feature stops the experiment.
    await setFeatureValue(database.db, loaded, 'top-banner-copy', 'members-first');
    expect((await readFeatureState(database.db, loaded)).payload.features['top-banner-copy']).toEqual({ defaultValue: 'members-first' });
  });

  it.each([
    ['an unknown feature', () => setFeatureValue(database.db, loaded, 'nope-nope', true), 'unknown-feature', /unknown feature nope-nope/],
    ['a value of another type', () => setFeatureValue(database.db, loaded, 'show-onboarding', 'yes'), 'invalid', /boolean value/],
    ['variations of another type', () => setExperiment(database.db, loaded, 'show-onboarding', { variations: ['a', 'b'], weights: [0.5, 0.5], coverage: 1 }), 'invalid', /boolean values/],
    ['weights that do not add up', () => setExperiment(database.db, loaded, 'top-banner-copy', { variations: ['control', 'x'], weights: [0.5, 0.6], coverage: 1 }), 'invalid', /add up to 1/],
    ['one variation', () => setExperiment(database.db, loaded, 'top-banner-copy', { variations: ['control'], weights: [1], coverage: 1 }), 'invalid', /2 to 10/],
    ['an unknown experiment', () => setExperiment(database.db, loaded, 'nope-nope', { variations: [1, 2], weights: [0.5, 0.5], coverage: 1 }), 'unknown-feature', /unknown feature/],
  ] as const)('refuses %s and writes nothing', async (_label, run, reason, message) => {
    const before = await readFeatureState(database.db, loaded);
    const result = await run();
    expect(result).toMatchObject({ ok: false, reason });
    expect(result.ok ? '' : result.message).toMatch(message);
    expect((await readFeatureState(database.db, loaded)).revision).toBe(before.revision);
  });

  it('never serves an override it cannot read', async () => {
    await database.db.insertInto('feature_overrides').values({ key: 'show-onboarding', definition: '{"defaultValue": "not a boolean"', updated_at: new Date().toISOString() }).execute();
    const { payload, features } = await readFeatureState(database.db, loaded);
    expect(payload.features['show-onboarding']).toEqual({ defaultValue: true });
    expect(features.find((f) => f.key === 'show-onboarding')?.source).toBe('file');
    await database.db.deleteFrom('feature_overrides').execute();
  });
});

interface Running {
  api: ApiServer;
  hub: FeatureHub;
  base: string;
  close(): Promise<void>;
}

async function startApi(env: Env, database: TestDatabase, hubOptions: { redis?: boolean; channel?: string; intervalMs?: number } = {}): Promise<Running> {
  const logger = createLogger(env);
  const limiters = createRateLimiters({ REDIS_URL: undefined }, { rules: GENEROUS_LIMITS });
  const events = createRegistrationEvents();
  const hub = createFeatureHub({
    db: database.db,
    file: loaded,
    redisUrl: hubOptions.redis ? REDIS_URL : undefined,
    channel: hubOptions.channel,
    intervalMs: hubOptions.intervalMs ?? 60_000,
    logger,
  });
  await hub.ready();
  const api = await createApiServer({ env, db: database.db, logger, limiters, events, features: hub });
  api.server.listen(0, '127.0.0.1');
  await once(api.server, 'listening');
  const { port } = api.server.address() as AddressInfo;
  return {
    api,
    hub,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await api.close();
      await hub.close();
      await limiters.close();
      await events.close();
    },
  };
}

describe('the features endpoint and stream over HTTP', () => {
  let database: TestDatabase;
  let running: Running;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    running = await startApi(testEnv(), database);
  });
  afterAll(async () => {
    await running.close();
    await database.close();
  });
  afterEach(async () => {
    await resetFeature(database.db, loaded, 'show-onboarding');
    await running.hub.check();
  });

  it('answers the payload in GrowthBook format for the client key only', async () => {
    const response = await fetch(`${running.base}/api/features/${KEY}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sse-support')).toBe('enabled');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as FeaturePayload;
    expect(Object.keys(body).sort()).toEqual(['dateUpdated', 'features']);
    expect(body.features['show-onboarding']).toEqual({ defaultValue: true });
    expect(body.features['top-banner-copy']?.rules?.[0]).toMatchObject({ key: 'top-banner-copy', variations: ['control', 'members-first'] });

    expect((await fetch(`${running.base}/api/features/sdk-other`)).status).toBe(404);
    expect((await fetch(`${running.base}/sub/sdk-other`)).status).toBe(404);
    expect((await fetch(`${running.base}/api/features/${KEY}`, { method: 'POST' })).status).toBe(405);
  });

  it('streams the payload at once and every change as a features event', async () => {
    const stream = await openSse(`${running.base}/sub/${KEY}`);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = await stream.next();
    expect(first.event).toBe('features');
    expect((JSON.parse(first.data) as FeaturePayload).features['show-onboarding']).toEqual({ defaultValue: true });
    expect(running.hub.listenerCount).toBe(1);

    await setFeatureValue(database.db, loaded, 'show-onboarding', false);
    await running.hub.check();
    const changed = await stream.next((m) => m.event === 'features');
    const payload = JSON.parse(changed.data) as FeaturePayload;
    expect(payload.features['show-onboarding']).toEqual({ defaultValue: false });
    expect(payload.dateUpdated > (JSON.parse(first.data) as FeaturePayload).dateUpdated).toBe(true);

    stream.close();
    await expect.poll(() => running.hub.listenerCount, { timeout: 5_000 }).toBe(0);
  });

  it('ends open streams when the server shuts down', async () => {
    const env = testEnv();
    const other = await startApi(env, database);
    const stream = await openSse(`${other.base}/sub/${KEY}`);
    await stream.next();
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(stream.next(() => true, 2_000)).rejects.toThrow(/stream ended/);
  });
});

describe('keep-alive on an idle stream', () => {
  it('sends a comment every interval (20 s in production)', async () => {
    const database = await createTestDatabase('sqlite');
    const env = testEnv();
    const logger = createLogger(env);
    const limiters = createRateLimiters({ REDIS_URL: undefined }, { rules: GENEROUS_LIMITS });
    const hub = createFeatureHub({ db: database.db, file: loaded, intervalMs: 60_000 });
    const endpoint = createFeaturesEndpoint({ hub, clientKey: KEY, logger, keepAliveMs: 50 });
    const yoga = await createYogaApp({ env, db: database.db, logger, limiters, features: endpoint });
    const server = createServer(yoga).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const stream = await openSse(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sub/${KEY}`);
      await stream.next((m) => m.event === 'features');
      expect((await stream.next((m) => m.comment !== undefined)).comment).toBe('keep-alive');
      expect((await stream.next((m) => m.comment !== undefined)).comment).toBe('keep-alive');
      expect(endpoint.streams).toBe(1);
      stream.close();
      await expect.poll(() => endpoint.streams, { timeout: 5_000 }).toBe(0);
    } finally {
      endpoint.closeStreams();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await hub.close();
      await limiters.close();
      await database.close();
    }
  });
});

describe.each([
  ['Redis pub/sub', true],
  ['the realtime check', false],
] as const)('a change reaches a stream on another instance through %s', (_label, redis) => {
  let database: TestDatabase;
  const servers: Running[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const s of servers.splice(0)) await s.close();
    await database.close();
  });

  it('from the CLI of a third process (simulated: the service on its own connection, then the announcement)', async () => {
    const channel = `velvet-test:features:${randomUUID()}`;
    // With Redis the check never runs in this test (1 h); without, every 200 ms.
    const options = redis ? { redis: true, channel, intervalMs: 3_600_000 } : { intervalMs: 200 };
    const a = await startApi(testEnv(), database, options);
    const second = database.connectAgain();
    const b = await startApi(testEnv(), { ...database, db: second.db }, options);
    servers.push(a, b);
    const stream = await openSse(`${b.base}/sub/${KEY}`);
    await stream.next();

    const cli = database.connectAgain();
    try {
      await setFeatureValue(cli.db, loaded, 'show-onboarding', false);
      if (redis) expect(await announceFeatureChange(REDIS_URL, channel)).toBe('announced');
    } finally {
      await cli.close();
    }
    const changed = await stream.next((m) => m.event === 'features', 5_000);
    expect((JSON.parse(changed.data) as FeaturePayload).features['show-onboarding']).toEqual({ defaultValue: false });
    // The first instance serves the same payload.
    await expect
      .poll(async () => ((await (await fetch(`${a.base}/api/features/${KEY}`)).json()) as FeaturePayload).features['show-onboarding'], { timeout: 5_000 })
      .toEqual({ defaultValue: false });
    stream.close();
    servers.splice(servers.indexOf(b), 1);
    await b.close();
    await second.close();
  });
});
