/** The admin CLI against the e2e product's database (as an operator would run it on that machine). */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { E2E } from '../../../playwright.config.ts';

export function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The compiled CLI, as `npm run cli` runs it (`npm run test:e2e` builds it; ADR 026).
    const child = spawn(process.execPath, ['apps/api/dist/cli.js', ...args], {
      // PUBLIC_URL as the product has it, so the links the CLI prints lead to the product under test.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production', DATA_DIR: path.resolve(E2E.dataDir), PUBLIC_URL: E2E.base, LOG_LEVEL: 'warn' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
