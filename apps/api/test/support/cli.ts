/**
 * The admin CLI as an operator runs it: a child process, its exit code and its output. One
 * runner for every test that drives the CLI (API tests, the web server's tests, e2e):
 * `source` runs `src/cli.ts` through tsx, `compiled` the built `dist/cli.js` that `npm run cli`
 * runs (ADR 026; build first). Only PATH and HOME of this process are passed on besides `env`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { env: Record<string, string | undefined>; build?: 'source' | 'compiled' }): Promise<CliRun> {
  const program = options.build === 'compiled' ? ['dist/cli.js'] : ['--import', 'tsx', 'src/cli.ts'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...program, ...args], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
