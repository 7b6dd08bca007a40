/**
 * The per-engine fixture of the API tests: inside `describe.each(ENGINES)`, a real database of
 * that engine made before the block's tests, emptied after each test and removed after the
 * block; `engineApi` adds a full API over it (support/api.ts). The objects returned are filled
 * in by `beforeAll`: read their fields in hooks and tests, not while the block is collected.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Env } from '../../src/config.ts';
import type { DatabaseEngine } from '../../src/db/connect.ts';
import { createTestApi } from './api.ts';
import type { TestApi } from './api.ts';
import { createTestDatabase, deleteAllData } from './database.ts';
import type { TestDatabase } from './database.ts';
import { REDIS_URL, testEnv } from './env.ts';

export { ENGINES } from './database.ts';

interface DatabaseOptions {
  /** Apply the migrations (default true); the migration tests start from an empty database. */
  migrate?: boolean;
  /** Delete every row after each test (default true). */
  clearAfterEach?: boolean;
}

export function engineDatabase(engine: DatabaseEngine, options: DatabaseOptions = {}): TestDatabase {
  const database = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(database, await createTestDatabase(engine, { migrate: options.migrate ?? true }));
  });
  if (options.clearAfterEach ?? true) {
    afterEach(async () => {
      await deleteAllData(database.db);
    });
  }
  afterAll(async () => {
    await database.close?.();
  });
  return database;
}

type ApiOptions = Omit<Parameters<typeof createTestApi>[0], 'env' | 'db'>;

export function engineApi(
  engine: DatabaseEngine,
  options: DatabaseOptions & { env?: Env; api?: () => ApiOptions } = {},
): { database: TestDatabase; api: TestApi; env: Env } {
  const database = engineDatabase(engine, options);
  const env = options.env ?? testEnv();
  const api = {} as TestApi;
  beforeAll(async () => {
    Object.assign(api, await createTestApi({ ...options.api?.(), env, db: database.db }));
  });
  afterAll(async () => {
    await api.close?.();
  });
  return { database, api, env };
}

/** The rate limiters' two stores (ADR 003, 027): in memory, and Redis with REDIS_URL. */
export const RATE_LIMIT_STORES = [
  ['memory', {}],
  ['redis', { REDIS_URL }],
] as const;

/**
 * For `describe.each(RATE_LIMIT_STORES)`: a SQLite test database kept for the whole block and a
 * Redis key prefix of its own, whose keys are deleted after the block (never anyone else's).
 */
export function rateLimitFixture(store: 'memory' | 'redis'): { database: TestDatabase; keyPrefix: string } {
  const database = engineDatabase('sqlite', { clearAfterEach: false });
  const keyPrefix = `velvet-test-${randomUUID()}`;
  afterAll(async () => {
    if (store !== 'redis') return;
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });
  return { database, keyPrefix };
}
