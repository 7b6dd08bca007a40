/** The admin CLI against the e2e product's database (as an operator would run it on that machine). */
import path from 'node:path';
import { type CliRun, runCli } from '../../../apps/api/test/support/cli.ts';
import { E2E } from '../../../playwright.config.ts';

export function cli(args: string[]): Promise<CliRun> {
  // The compiled CLI, as `npm run cli` runs it (`npm run test:e2e` builds it; ADR 026), with
  // PUBLIC_URL as the product has it, so the links the CLI prints lead to the product under test.
  return runCli(args, {
    build: 'compiled',
    env: { NODE_ENV: 'production', DATA_DIR: path.resolve(E2E.dataDir), PUBLIC_URL: E2E.base, LOG_LEVEL: 'warn' },
  });
}
