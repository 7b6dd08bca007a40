/**
 * Starts and stops the product for the benchmarks: the production build of the web app
 * and the API, through `scripts/start.mjs`, on loopback ports of their own and a fresh
 * data directory. Everything started here is stopped here (process group), even when a
 * measurement fails or the run is interrupted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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

/**
 * Builds the web app when its production build is missing (or when `force`).
 * @param {string} root repository root
 * @param {{ force?: boolean }} [options]
 * @returns {{ built: boolean, staleWarning?: string }}
 */
export function ensureBuild(root, { force = false } = {}) {
  const serverEntry = path.join(root, 'apps/web/build/server/index.js');
  if (force || !existsSync(serverEntry)) {
    console.log(force ? 'Rebuilding the web app (npm run build)…' : 'No production build yet: npm run build…');
    const result = spawnSync('npm', ['run', 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PATH: pathWithThisNode() },
      timeout: 10 * 60 * 1000,
    });
    if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
    return { built: true };
  }
  const builtAt = statSync(serverEntry).mtimeMs;
  const sources = ['apps/web/app', 'packages'].map((dir) => path.join(root, dir)).filter((dir) => existsSync(dir));
  const newestSource = Math.max(0, ...sources.map((dir) => newestMtime(dir)));
  if (newestSource > builtAt) {
    return {
      built: false,
      staleWarning: 'apps/web/build may be stale (older than files under apps/web/app or packages/): pass --rebuild to measure the current code.',
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
 * @property {string} webUrl   e.g. http://127.0.0.1:3410
 * @property {string} apiUrl   e.g. http://127.0.0.1:9410
 * @property {string} dataDir  the temporary data directory
 * @property {() => string} logTail last output of the product (for failure reports)
 * @property {() => Promise<void>} stop stops every process and deletes the data directory
 * @property {() => void} stopNow synchronous last resort (process 'exit'): SIGKILL the group, delete the data directory
 */

/**
 * Starts `node scripts/start.mjs` in a process group of its own and waits for both health checks.
 * @param {string} root repository root
 * @param {{ webPort: number, apiPort: number, env?: Record<string, string>, onSpawn?: (product: Product) => void }} options
 *   env: extra variables (e.g. CMP_ENABLED=false); onSpawn: called as soon as the process exists (register clean-up there, before the wait)
 * @returns {Promise<Product>}
 */
export async function startProduct(root, { webPort, apiPort, env: extraEnv = {}, onSpawn }) {
  const webUrl = `http://127.0.0.1:${webPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  for (const url of [`${webUrl}/healthz`, `${apiUrl}/health`]) {
    if (await answers(url)) throw new Error(`Something already answers on ${url}: stop it first (the benchmark uses its own servers).`);
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'velvet-bench-'));
  const env = {
    ...process.env,
    PATH: pathWithThisNode(),
    PORT: String(webPort),
    API_PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: webUrl,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '100000000',
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(36).toString('base64url'), // 48 characters
    ...extraEnv,
  };
  // Settings of the developer's shell that would change what is measured.
  for (const name of ['API_URL', 'PUBLIC_API_URL', 'DATABASE_URL', 'REDIS_URL', 'TRUST_PROXY', 'TRUSTED_COUNTRY_HEADER']) delete env[name];

  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env,
    detached: true, // own process group: stop() signals the API and web server too
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = /** @type {number} */ (child.pid);
  let log = '';
  const keep = (/** @type {Buffer} */ chunk) => {
    log = (log + chunk.toString('utf8')).slice(-LOG_TAIL_BYTES);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
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
    logTail: () => log,
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
      child.stdout.destroy();
      child.stderr.destroy();
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
    const apiUp = await waitForOk(`${apiUrl}/health`, { tries: 160, isDead });
    const webUp = apiUp && (await waitForOk(`${webUrl}/healthz`, { tries: 160, isDead }));
    if (!apiUp || !webUp) {
      throw new Error(
        `The product did not become healthy (${exited ? 'start.mjs exited' : 'no answer after 160 tries'}). Its output:\n${log}`,
      );
    }
  } catch (error) {
    await product.stop();
    throw error;
  }
  return product;
}
