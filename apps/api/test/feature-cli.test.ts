/** `feature list|set|reset` and `experiment set` as an operator runs them: a child process on a temp SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FeaturePayload } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createFeatureHub } from '../src/features/feature-hub.ts';
import { runCli } from './support/cli.ts';
import { TEST_SECRET, REDIS_URL } from './support/env.ts';


describe('feature and experiment CLI commands', () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'velvet-feature-cli-'));
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      NODE_ENV: 'test',
      DATA_DIR: dir,
      DATABASE_URL: `file:${path.join(dir, 'cli.sqlite')}`,
      APP_SECRET: TEST_SECRET,
      SEED_DEMO: 'false',
    };
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[], extraEnv: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extraEnv } });

  it('lists the versioned features, overrides one, runs an experiment and resets', async () => {
    const list = await cli(['feature', 'list']);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(/^KEY\s+VALUE\s+SOURCE\s+EXPERIMENT\s+UPDATED$/m);
    expect(list.stdout).toMatch(/^show-onboarding\s+true\s+file\s+-\s+-$/m);
    expect(list.stdout).toMatch(/^top-banner-copy\s+"control"\s+file\s+control:0\.5 members-first:0\.5 coverage:1\s+-$/m);

    const set = await cli(['feature', 'set', 'show-onboarding', '--value', 'false']);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('show-onboarding: false (database)');
    expect(set.stderr).toMatch(/running API instances pick it up within 2 s/);

    const experiment = await cli(['experiment', 'set', 'top-banner-copy', '--variations', 'control,members-first', '--weights', '0.2,0.8', '--coverage', '0.5']);
    expect(experiment.code).toBe(0);
    expect(experiment.stdout).toContain('experiment: control:0.2 members-first:0.8 coverage:0.5');

    const json = JSON.parse((await cli(['feature', 'list', '--json'])).stdout) as { revision: number; dateUpdated: string; features: { key: string; source: string }[] };
    expect(json.revision).toBe(2);
    expect(json.features.find((f) => f.key === 'show-onboarding')?.source).toBe('database');
    expect(json.features.find((f) => f.key === 'top-banner-copy')).toMatchObject({
      source: 'database',
      definition: { rules: [{ weights: [0.2, 0.8], coverage: 0.5, hashAttribute: 'acqAnonymousId' }] },
    });

    const reset = await cli(['feature', 'reset', 'show-onboarding']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('show-onboarding: true (file)');
    expect((await cli(['feature', 'list'])).stdout).toMatch(/^show-onboarding\s+true\s+file/m);
  });

  it.each([
    [['feature', 'set', 'nope-nope', '--value', 'true'], /unknown feature nope-nope \(features: show-onboarding, onboarding-variant, promo-banner, top-banner-copy\)/],
    [['feature', 'set', 'show-onboarding', '--value', 'yes'], /--value.*must be JSON/],
    [['feature', 'set', 'show-onboarding', '--value', '"yes"'], /takes a boolean value/],
    [['feature', 'set', 'show-onboarding'], /required option '--value/],
    [['feature', 'reset', 'nope-nope'], /unknown feature/],
    [['experiment', 'set', 'top-banner-copy', '--variations', 'a,b', '--weights', '0.5,0.6'], /add up to 1/],
    [['experiment', 'set', 'top-banner-copy', '--variations', 'a,b', '--weights', '0.5'], /one weight per variation/],
    [['experiment', 'set', 'top-banner-copy', '--variations', 'a,b', '--weights', '0.5,0.5', '--coverage', '2'], /--coverage.*from 0 to 1/],
    [['experiment', 'set', 'top-banner-copy', '--variations', 'a,b', '--weights', 'x,y'], /--weights.*comma-separated numbers/],
    // The console's rules and words (@velvet/validation/admin-ops, ADR 049): the same refusal in the browser.
    [['experiment', 'set', 'top-banner-copy', '--variations', 'a,a', '--weights', '0.5,0.5'], /--variations: The variations must differ from one another\./],
  ])('refuses %j with exit code 2', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('announces a change through Redis, so a running instance reloads at once', async () => {
    const database = connectDatabase(env.DATABASE_URL!);
    await migrateToLatest(database.db);
    const hub = createFeatureHub({ db: database.db, file: loadFeatureFile(), redisUrl: REDIS_URL, intervalMs: 3_600_000 });
    try {
      await hub.ready();
      await hub.payload();
      const received = new Promise<FeaturePayload>((resolve) => hub.subscribe(resolve));
      const run = await cli(['feature', 'set', 'promo-banner', '--value', 'false'], { REDIS_URL });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('announced to every API instance');
      expect((await received).features['promo-banner']).toEqual({ defaultValue: false });
      await cli(['feature', 'reset', 'promo-banner'], { REDIS_URL });
    } finally {
      await hub.close();
      await database.close();
    }
  });
});
