/** Types of scripts/cluster.mjs for the TypeScript tests that start the topology. */
import type { ChildProcess } from 'node:child_process';
import type { startHaproxy, startNginx, startPgbouncer, startRedis } from './engines.mjs';

export interface ClusterProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

export interface Cluster {
  front: string;
  apiUrl: string;
  databaseUrl: string;
  env: Record<string, string>;
  redis: Awaited<ReturnType<typeof startRedis>>;
  pgbouncer: Awaited<ReturnType<typeof startPgbouncer>>;
  haproxy: Awaited<ReturnType<typeof startHaproxy>>;
  nginx: Awaited<ReturnType<typeof startNginx>>;
  names(): string[];
  process(name: string): ClusterProcess | undefined;
  launch(name: string): Promise<void>;
  inRotation(name: string): Promise<void>;
  terminate(name: string): Promise<number | null | undefined>;
  kill(name: string): Promise<void>;
  cli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export function startCluster(options?: { webs?: number; apis?: number; env?: Record<string, string>; databaseUrl?: string; onStop?: (stop: () => Promise<void>) => void }): Promise<Cluster>;
