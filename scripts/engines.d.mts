/** Types of scripts/engines.mjs for the TypeScript tests that start the topology's parts. */
interface Engine {
  /** Starts it again on the same port and files (after stop or kill). */
  start(): Promise<void>;
  /** Ends it: SIGTERM (nginx: SIGQUIT, graceful). */
  stop(): Promise<void>;
  /** Ends it with SIGKILL. */
  kill(): Promise<void>;
}
type Stdio = 'inherit' | 'ignore';
export function fillTemplate(file: string, values: Record<string, string>, lists?: Record<string, string[]>): string;
export function startNginx(options: { listen: string; origin?: string; origins?: string[]; stateDir?: string; workers?: number | 'auto'; stdio?: Stdio }): Promise<Engine & { url: string }>;
export function startHaproxy(options: {
  webListen: string;
  apiListen: string;
  apiInternalListen: string;
  webOrigins: string[];
  apiOrigins: string[];
  stateDir?: string;
  stdio?: Stdio;
}): Promise<Engine & { stateDir: string; webUrl: string; apiUrl: string; apiInternalUrl: string }>;
export function startPgbouncer(options: { listen: string; postgres: string; stateDir?: string; stdio?: Stdio }): Promise<Engine & { url: (database: string) => string }>;
export function startRedis(options: { port: number; stateDir?: string; stdio?: Stdio }): Promise<Engine & { url: string }>;
