/**
 * Starts and stops the product for the benchmarks: the production build of the web app
 * and the API, through `scripts/start.mjs` (or the API alone, e.g. on PostgreSQL), on loopback
 * ports of their own and a fresh data directory. Everything started here is stopped here (process group), even when a
 * measurement fails or the run is interrupted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuClock } from './cpu.mjs';

/** How many bytes of the product's own output to keep for a failure report. */
const LOG_TAIL_BYTES = 16 * 1024;

/**
 * `PATH` with the directory of the running Node first: `npm`, `tsx` and the `#!/usr/bin/env node`
 * scripts the product starts must use this Node (22.22+), not an older one found on the system.
 * @returns {string}
 */
export function pathWithThisNode() {
  return [path.dirname(process.execPath), process.env.PATH ?? ''].filter(Boolean).join(path.delimiter);
}

/**
 * Newest modification time (ms) of the files under `dir`, walking at most `limit` entries.
 * @param {string} dir
 * @param {number} [limit]
 * @returns {number}
 */
function newestMtime(dir, limit = 5000) {
  let newest = 0;
  let seen = 0;
  const stack = [dir];
  while (stack.length > 0 && seen < limit) {
    const current = /** @type {string} */ (stack.pop());
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (++seen > limit) break;
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}

/** What `npm run build` makes, each with the sources it is built from. */
const BUILDS = [
  { built: 'apps/web/build/server/index.js', sources: ['apps/web/app', 'apps/web/server', 'packages'] },
  { built: 'apps/api/dist/main.js', sources: ['apps/api/src', 'packages'] },
  { built: 'apps/api/dist/cli.js', sources: ['apps/api/src', 'packages'] },
];

/**
 * Builds the product when its production build is missing (or when `force`).
 * @param {string} root repository root
 * @param {{ force?: boolean, apiOnly?: boolean }} [options] apiOnly: only the API's build is needed (the sections that run it alone)
 * @returns {{ built: boolean, staleWarning?: string }}
 */
export function ensureBuild(root, { force = false, apiOnly = false } = {}) {
  const builds = apiOnly ? BUILDS.filter(({ built }) => built.startsWith('apps/api/')) : BUILDS;
  if (force || builds.some(({ built }) => !existsSync(path.join(root, built)))) {
    console.log(force ? 'Rebuilding (npm run build)…' : 'No production build yet: npm run build…');
    const result = spawnSync('npm', ['run', 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PATH: pathWithThisNode() },
      timeout: 10 * 60 * 1000,
    });
    if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
    return { built: true };
  }
  /** @type {Map<string, number>} */
  const newest = new Map();
  const newestUnder = (/** @type {string} */ dir) => {
    if (!newest.has(dir)) newest.set(dir, existsSync(path.join(root, dir)) ? newestMtime(path.join(root, dir)) : 0);
    return /** @type {number} */ (newest.get(dir));
  };
  const stale = builds.filter(({ built, sources }) => Math.max(...sources.map(newestUnder)) > statSync(path.join(root, built)).mtimeMs);
  if (stale.length > 0) {
    return {
      built: false,
      staleWarning: `${stale.map((b) => b.built).join(', ')} may be older than their sources: pass --rebuild to measure the current code.`,
    };
  }
  return { built: false };
}

/**
 * Fetches `url` until it answers 2xx, at most `tries` times, `intervalMs` apart.
 * @param {string} url
 * @param {{ tries?: number, intervalMs?: number, isDead?: () => boolean }} [options]
 * @returns {Promise<boolean>}
 */
async function waitForOk(url, { tries = 120, intervalMs = 250, isDead = () => false } = {}) {
  for (let i = 0; i < tries; i++) {
    if (isDead()) return false;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  return false;
}

/**
 * Whether something already answers on `url` (then the benchmark would measure a stranger).
 * @param {string} url
 * @returns {Promise<boolean>}
 */
async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of the group `pgid` is still alive.
 * @param {number} pgid
 * @returns {boolean}
 */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * @typedef {object} Product
 * @property {string} webUrl   e.g. http://127.0.0.1:3410 (startApi: '')
 * @property {string} apiUrl   e.g. http://127.0.0.1:9410
 * @property {string} dataDir  the temporary data directory
 * @property {Record<string, string>} env the environment the programs run with (for the CLI on the same data)
 * @property {(() => number) | null} cpu CPU milliseconds its processes used so far (Linux; bench/lib/cpu.mjs)
 * @property {() => string} logTail last output of the product (for failure reports)
 * @property {() => Promise<void>} stop stops every process and deletes the data directory
 * @property {() => void} stopNow synchronous last resort (process 'exit'): SIGKILL the group, delete the data directory
 */

/**
 * The environment of a benchmarked program: production, a throw-away data directory, a random
 * secret, the default log level (`info`: one line per request, as `npm start` logs; written to
 * a file, not through a pipe into the benchmark process) and rate limits raised so that the
 * load runs measure work, not refusals. Settings of the developer's shell that would change
 * what is measured are dropped.
 * @param {{ webPort: number, apiPort: number, dataDir: string, extraEnv: Record<string, string> }} options
 * @returns {Record<string, string>}
 */
function benchEnv({ webPort, apiPort, dataDir, extraEnv }) {
  /** @type {Record<string, string>} */
  const env = {
    ...(/** @type {Record<string, string>} */ (process.env)),
    PATH: pathWithThisNode(),
    PORT: String(webPort),
    API_PORT: String(apiPort),
    // The worker role's health port, when scripts/start.mjs runs the roles (ADR 062).
    WORKER_PORT: String(apiPort + 2),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${webPort}`,
    LOG_LEVEL: 'info',
    RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '100000000',
    RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '100000000',
    // One campaign code takes every registration of the run; the abuse defence (issue 12) would
    // refuse all but 20 per 10 minutes, and solving a proof of work per request would measure
    // the load generator, not the server.
    RATE_LIMIT_REGISTRATIONS_PER_CODE: '100000000',
    PROOF_OF_WORK: 'false',
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(36).toString('base64url'), // 48 characters
  };
  for (const name of ['API_URL', 'PUBLIC_API_URL', 'DATABASE_URL', 'REDIS_URL', 'TRUST_PROXY', 'TRUSTED_COUNTRY_HEADER', 'SMTP_URL']) delete env[name];
  return { ...env, ...extraEnv };
}

/**
 * Starts `node scripts/start.mjs` (web, api and worker, as `npm start` runs them) in a process group
 * of its own and waits for both health checks.
 * @param {string} root repository root
 * @param {{ webPort: number, apiPort: number, env?: Record<string, string>, onSpawn?: (product: Product) => void }} options
 *   env: extra variables (e.g. CMP_ENABLED=false); onSpawn: called as soon as the process exists (register clean-up there, before the wait)
 * @returns {Promise<Product>}
 */
export async function startProduct(root, { webPort, apiPort, env: extraEnv = {}, onSpawn }) {
  const webUrl = `http://127.0.0.1:${webPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  return launch(root, {
    script: 'scripts/start.mjs',
    webUrl,
    apiUrl,
    health: [`${apiUrl}/health`, `${webUrl}/healthz`],
    env: (dataDir) => benchEnv({ webPort, apiPort, dataDir, extraEnv }),
    onSpawn,
  });
}

/**
 * Starts the API alone (`node apps/api/dist/main.js`, migrated and seeded at start-up), e.g. on
 * PostgreSQL with `env: { DATABASE_URL }`, and waits for its health check.
 * @param {string} root repository root
 * @param {{ apiPort: number, env?: Record<string, string>, onSpawn?: (product: Product) => void }} options
 * @returns {Promise<Product>}
 */
export async function startApi(root, { apiPort, env: extraEnv = {}, onSpawn }) {
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  return launch(root, {
    script: 'apps/api/dist/main.js',
    webUrl: '',
    apiUrl,
    health: [`${apiUrl}/health`],
    // No web server: PUBLIC_URL names the port the web server would have (links in emails only).
    env: (dataDir) => benchEnv({ webPort: apiPort + 1, apiPort, dataDir, extraEnv }),
    onSpawn,
  });
}

/**
 * @param {string} root
 * @param {{ script: string, webUrl: string, apiUrl: string, health: string[], env: (dataDir: string) => Record<string, string>,
 *   onSpawn?: (product: Product) => void }} options
 * @returns {Promise<Product>}
 */
async function launch(root, { script, webUrl, apiUrl, health, env: makeEnv, onSpawn }) {
  for (const url of health) {
    if (await answers(url)) throw new Error(`Something already answers on ${url}: stop it first, or choose other ports (BENCH_WEB_PORT, BENCH_API_PORT).`);
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'velvet-bench-'));
  const env = makeEnv(dataDir);
  const logFile = path.join(dataDir, 'output.log');
  const logFd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(root, script)], {
    cwd: root,
    env,
    detached: true, // own process group: stop() signals the API and web server too
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const pgid = /** @type {number} */ (child.pid);
  let lastLog = '';
  const logTail = () => {
    try {
      const size = statSync(logFile).size;
      const fd = openSync(logFile, 'r');
      try {
        const length = Math.min(size, LOG_TAIL_BYTES);
        const buffer = Buffer.alloc(length);
        readSync(fd, buffer, 0, length, size - length);
        lastLog = buffer.toString('utf8');
      } finally {
        closeSync(fd);
      }
    } catch {
      // deleted with the data directory: the last tail read
    }
    return lastLog;
  };
  let exited = child.exitCode !== null;
  const exitedPromise = new Promise((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve(undefined);
    });
  });

  let stopped = false;
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  /** @type {Product} */
  const product = {
    webUrl,
    apiUrl,
    dataDir,
    env,
    cpu: cpuClock(pgid, { group: true }),
    logTail,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (groupAlive(pgid)) {
        try {
          process.kill(-pgid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      // The API allows itself 10 s to shut down gracefully; wait a little longer, then force.
      await Promise.race([exitedPromise, sleep(12_000)]);
      for (let i = 0; i < 50 && groupAlive(pgid); i++) await sleep(100);
      if (groupAlive(pgid)) {
        console.warn('The product did not stop on SIGTERM: SIGKILL to its process group.');
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
        for (let i = 0; i < 20 && groupAlive(pgid); i++) await sleep(100);
      }
      if (groupAlive(pgid)) console.warn(`Process group ${pgid} is still alive: stop it by hand (kill -- -${pgid}).`);
      logTail();
      removeDataDir();
    },
    stopNow() {
      if (groupAlive(pgid)) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      removeDataDir();
    },
  };

  onSpawn?.(product);
  try {
    const isDead = () => exited;
    let healthy = true;
    for (const url of health) healthy = healthy && (await waitForOk(url, { tries: 160, isDead }));
    if (!healthy) {
      throw new Error(`${script} did not become healthy (${exited ? 'it exited' : 'no answer after 160 tries'}). Its output:\n${logTail()}`);
    }
  } catch (error) {
    await product.stop();
    throw error;
  }
  return product;
}
