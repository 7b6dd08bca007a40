import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from '../../src/config.ts';
import type { Env } from '../../src/config.ts';

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A parsed environment for tests: no secrets file, no demo seed, silent logs. */
export function testEnv(overrides: Record<string, string> = {}): Env {
  return parseEnv({
    NODE_ENV: 'test',
    APP_SECRET: TEST_SECRET,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'velvet-api-env-')),
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    // The sign-up gate's proof of work has tests of its own (proof-of-work.test.ts); the others send none.
    PROOF_OF_WORK: 'false',
    // Never a resolver outside this machine: tests of the check bring their own on loopback (ADR 042).
    EMAIL_DOMAIN_CHECK: 'false',
    // Tests of places and races register many times on one code; the leak watch has its own tests (ADR 043).
    CODE_QUARANTINE_SCORE: '10000',
    // Shedding has its own tests (overload.test.ts, ADR 052); the others send many operations at
    // once on a machine busy with the whole suite, where a turn may take longer than the default wait.
    DATABASE_QUEUE_WAIT_MS: '30000',
    ...overrides,
  });
}
