/**
 * A server under test as a child process (the fuzz suite's API and web server): started with
 * tsx, ready once it prints a JSON line with `ready`, watched for an early exit, for stderr
 * and for error log lines (pino JSON on stdout, level >= 50), measured by its resident set
 * size (/proc/<pid>/status), stopped with SIGTERM.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface ChildServer {
  port: number;
  /** The ready line's other fields (e.g. the API's seeded invitation code). */
  ready: Record<string, unknown>;
  /** Everything the process wrote to stderr. */
  stderr(): string;
  /** Log lines at level error or fatal (pino JSON on stdout). */
  errorLogs(): Record<string, unknown>[];
  /** The exit code or signal once the process has ended; null while it runs. */
  exited(): string | null;
  /** Resident set size in bytes, from /proc. */
  rss(): number;
  /** After a garbage collection (the child handles SIGUSR2, runs with --expose-gc): its RSS and V8 heap in use. */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  /** The script, run by node with tsx. */
  script: string;
  cwd: string;
  env: Record<string, string>;
  /** Extra node options, e.g. --conditions=development. */
  nodeArgs?: string[];
  /** Start-up deadline. */
  timeoutMs?: number;
}

export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const errorLogs: Record<string, unknown>[] = [];
  const memoryWaiters: ((memory: { rss: number; heapUsed: number }) => void)[] = [];
  let exit: string | null = null;
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = signal ?? String(code);
      resolve();
    });
  });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${options.script} did not start in time:\n${stderr}`)), options.timeoutMs ?? 60_000);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${options.script} exited (${exit}) before it was ready:\n${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return;
      }
      if (typeof parsed !== 'object' || parsed === null) return;
      const record = parsed as Record<string, unknown>;
      if (typeof record.memory === 'object' && record.memory !== null) {
        memoryWaiters.shift()?.(record.memory as { rss: number; heapUsed: number });
      } else if (record.ready === true) {
        clearTimeout(timer);
        resolve(record);
      } else if (typeof record.level === 'number' && record.level >= 50) {
        errorLogs.push(record);
      }
    });
  });
  return {
    port: Number(ready.port),
    ready,
    stderr: () => stderr,
    errorLogs: () => errorLogs,
    exited: () => exit,
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
      return Number(kb ?? 0) * 1024;
    },
    memory() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no memory report in 10 s')), 10_000);
        memoryWaiters.push((memory) => {
          clearTimeout(timer);
          resolve(memory);
        });
        child.kill('SIGUSR2');
      });
    },
    async stop() {
      if (exit !== null) return;
      const deadline = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(deadline);
    },
  };
}
