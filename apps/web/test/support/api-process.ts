/**
 * The real API as a child process (`node --import tsx src/main.ts`) on its own SQLite
 * database and port, for tests of the web server against an API that stops, starts and
 * limits. `stop()` ends it (SIGTERM, as a restart does); `start()` brings it back on the
 * same port and data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../../api/test/support/cli.ts';

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../api');

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `check` until it holds, or fails after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ApiProcess {
  url: string;
  port: number;
  /** Its SQLite database, for tests that count what it wrote. */
  databaseUrl: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The admin CLI on the same database. */
  cli(...args: string[]): Promise<string>;
  dispose(): Promise<void>;
}

export async function startApiProcess(overrides: Record<string, string> = {}): Promise<ApiProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'velvet-web-api-'));
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    APP_SECRET: 'web-test-secret-that-is-long-enough-0123456789',
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${path.join(dataDir, 'api.sqlite')}`,
    API_PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://localhost:3000',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    ...overrides,
  };
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const healthy = async () => {
    try {
      return (await fetch(`${url}/health`)).ok;
    } catch {
      return false;
    }
  };
  const api: ApiProcess = {
    url,
    port,
    databaseUrl: env.DATABASE_URL,
    async start() {
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: apiRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
      const running = child;
      await until(async () => running.exitCode === null && (await healthy()), 60_000, 'the API answering /health');
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      await exited;
    },
    async cli(...args) {
      const run = await runCli(args, { env });
      if (run.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      return run.stdout;
    },
    async dispose() {
      await api.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await api.start();
  return api;
}
