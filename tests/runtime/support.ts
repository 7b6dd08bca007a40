/** Starting the product's own commands as child processes, and waiting on them without sleeps. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COMPILED = ['apps/api/dist/main.js', 'apps/api/dist/cli.js', 'apps/web/build/server/index.js'];

export function missingBuild(): string[] {
  return COMPILED.filter((file) => !existsSync(path.join(ROOT, file)));
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `count` different ports nothing listens on right now (all held at once, so none is handed out twice). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
}

/** Runs `node <args>` from the repository root with a clean environment plus `env`. */
export function run(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export function dataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'velvet-runtime-'));
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export async function status(url: string, init?: RequestInit): Promise<number | undefined> {
  try {
    return (await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return undefined;
  }
}

/** The child processes of `pid`, with their command lines (Linux /proc). */
export function childrenOf(pid: number): { pid: number; argv: string[] }[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.map((child) => ({ pid: child, argv: readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').filter(Boolean) }));
}
