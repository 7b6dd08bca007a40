/**
 * The API as a real child process (`node --import tsx src/main.ts`), for the fault tests
 * (docs/decisions/027): it is the process that must survive a dropped database connection
 * and stop in time with Redis down. Its output is kept for the assertion messages.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from './env.ts';

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** A port nothing listens on right now (bound on port 0, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${lastError instanceof Error ? ` (last error: ${lastError.message})` : ''}`);
    }
    // The poll interval between checks of the condition.
    await new Promise<void>((resolve) => setTimeout(resolve, 25));
  }
}

export interface ApiProcess {
  child: ChildProcess;
  url: string;
  /** stdout and stderr so far. */
  output(): string;
  /** null while running. */
  exitCode(): number | null;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (test clean-up). */
  kill(): Promise<void>;
}

/** Starts the API with `env` on top of a quiet test environment; resolves once /health answers 200. */
export async function startApiProcess(env: Record<string, string>, options: { readyTimeoutMs?: number } = {}): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      API_PORT: String(port),
      APP_SECRET: TEST_SECRET,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'velvet-api-process-')),
      PUBLIC_URL: 'http://localhost:3000',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let code: number | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (exitCode, signal) => {
      code = exitCode ?? -1;
      resolve({ code: exitCode, signal });
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const api: ApiProcess = {
    child,
    url,
    output: () => output,
    exitCode: () => code,
    exited,
    async kill() {
      if (code === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
  try {
    await until(
      'the API process to answer /health',
      async () => {
        if (code !== null) throw new Error(`API process exited with ${code}:\n${output}`);
        const response = await fetch(`${url}/health`);
        return response.status === 200 ? true : undefined;
      },
      options.readyTimeoutMs ?? 30_000,
    );
  } catch (error) {
    await api.kill();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}`, { cause: error });
  }
  return api;
}

/** POSTs a GraphQL operation the way the web server does; resolves with the status and body. */
export async function graphqlOver(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, body: (await response.json()) as never };
}
