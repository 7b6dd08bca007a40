/**
 * The API as a child process for the fuzz suite (apps/api/test/fuzz.test.ts and
 * apps/web/test/fuzz.test.ts): the server of src/server.ts with production settings over its
 * own migrated database (FUZZ_ENGINE=sqlite: a temporary file; postgres: a fresh schema),
 * an admin user and one usable invitation code, so generated input reaches the database.
 * A child process, so an unhandled rejection or an uncaught exception ends it the way it
 * would end the real API; the parent watches its exit code, stderr and error log lines.
 * Prints one JSON line {"ready":true,"port":…,"code":…,"pid":…}; SIGTERM stops it and
 * removes the database.
 */
import type { AddressInfo } from 'node:net';
import { parseEnv } from '../../src/config.ts';
import type { DatabaseEngine } from '../../src/db/connect.ts';
import { seedAdminUser } from '../../src/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { createRateLimiters } from '../../src/rate-limit.ts';
import type { RateLimitRule } from '../../src/rate-limit.ts';
import { createApiServer } from '../../src/server.ts';
import { createTestDatabase } from './database.ts';
import { insertCode } from './factories.ts';

const engine = (process.env.FUZZ_ENGINE ?? 'sqlite') as DatabaseEngine;
const env = parseEnv(process.env);
const logger = createLogger(env);
const database = await createTestDatabase(engine);
await seedAdminUser(database.db, env);
const { code } = await insertCode(database.db, { balance: 100_000 });

// Limits high enough that generated requests reach the operations, not the limiter.
const GENEROUS: RateLimitRule = { points: 1_000_000, duration: 60, burstPoints: 0, burstDuration: 60 };
const limiters = createRateLimiters(env, {
  rules: {
    registrationCodeCheck: GENEROUS,
    register: GENEROUS,
    activateAccount: GENEROUS,
    publicForms: GENEROUS,
    consentRecords: GENEROUS,
    funnelEvents: GENEROUS,
    adminLoginIp: GENEROUS,
    adminLoginAccountIp: GENEROUS,
    adminLoginFailures: GENEROUS,
  },
});
const api = await createApiServer({ env, db: database.db, logger, limiters });
await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ ready: true, port: (api.server.address() as AddressInfo).port, code, pid: process.pid })}\n`);

// With --expose-gc: SIGUSR2 collects garbage and prints the memory in use, so the parent measures
// what survives a run (a leak) rather than how lazily V8 returns memory.
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ memory: { rss, heapUsed } })}\n`);
});

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void api
    .close()
    .then(() => limiters.close())
    .then(() => database.close())
    .then(() => process.exit(0));
});
