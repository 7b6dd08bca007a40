/** The variables of the roles and their drain (ADR 062), as every process parses them. */
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../src/config.ts';
import { TEST_SECRET } from './support/env.ts';

const deployment = { PUBLIC_URL: 'https://club.velvetrope.example', APP_SECRET: TEST_SECRET, SMTP_URL: 'smtp://mail.example:587', DATA_DIR: '/tmp/velvet-roles-env' };

describe('ROLE, MIGRATE_ON_START and the shutdown times', () => {
  it('run api and worker in one process, migrating at start, by default', () => {
    expect(parseEnv({ DATA_DIR: '/tmp/velvet-roles-env', APP_SECRET: TEST_SECRET })).toMatchObject({ ROLE: 'all', MIGRATE_ON_START: true, WORKER_PORT: 9091, SHUTDOWN_GRACE_MS: 10_000 });
    expect(parseEnv({ ...deployment, ROLE: 'worker', MIGRATE_ON_START: 'false' })).toMatchObject({ ROLE: 'worker', MIGRATE_ON_START: false });
  });

  it('refuse a role the API build does not have', () => {
    expect(() => parseEnv({ ...deployment, ROLE: 'web' })).toThrow(EnvError);
  });

  it('keep a deployment accepting for 5 s after SIGTERM, a local instance not at all, unless set', () => {
    expect(parseEnv(deployment).SHUTDOWN_DELAY_MS).toBe(5_000);
    expect(parseEnv({ DATA_DIR: '/tmp/velvet-roles-env', APP_SECRET: TEST_SECRET }).SHUTDOWN_DELAY_MS).toBe(0);
    expect(parseEnv({ ...deployment, SHUTDOWN_DELAY_MS: '15000' }).SHUTDOWN_DELAY_MS).toBe(15_000);
  });
});
