#!/usr/bin/env node
/**
 * nginx from Debian's packages as the shared HTTP cache in front of a web origin (ADR 053),
 * configured from the repository's own deploy/nginx/nginx.conf.template, filled in as envsubst
 * would. Used by tests/runtime/shared-cache.test.ts and the bench; run it to try the cache in
 * front of `npm start`:
 *
 *   NGINX_LISTEN=127.0.0.1:8080 WEB_ORIGIN=127.0.0.1:3000 node scripts/nginx.mjs
 *
 * (nginx at /usr/sbin/nginx, or NGINX_PATH; the web origin with TRUST_PROXY=1.)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/**
 * Writes the filled-in configuration into `stateDir` and starts nginx in the foreground.
 * `workers`: nginx's worker processes, `auto` (one per core) unless told.
 * @param {{ listen: string, origin: string, stateDir?: string, workers?: number | 'auto', stdio?: 'inherit' | 'ignore' }} options
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>} once nginx answers
 */
export async function startNginx({ listen, origin, stateDir = mkdtempSync(path.join(os.tmpdir(), 'velvet-nginx-')), workers = 'auto', stdio = 'ignore' }) {
  if (!existsSync(NGINX)) throw new Error(`nginx is needed: apt-get install nginx (or set NGINX_PATH); not found at ${NGINX}`);
  mkdirSync(stateDir, { recursive: true });
  const values = { NGINX_LISTEN: listen, WEB_ORIGIN: origin, NGINX_STATE_DIR: stateDir, NGINX_WORKER_PROCESSES: String(workers) };
  const template = readFileSync(path.join(root, 'deploy/nginx/nginx.conf.template'), 'utf8');
  const file = path.join(stateDir, 'nginx.conf');
  writeFileSync(file, template.replace(/\$\{(\w+)\}/g, (_, name) => values[name]));
  // As root (CI), the workers keep root's user, who owns the state directory.
  const globals = `daemon off;${process.getuid?.() === 0 ? ' user root root;' : ''}`;
  const child = spawn(NGINX, ['-c', file, '-g', globals], { stdio });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://${listen.includes(':') ? listen : `127.0.0.1:${listen}`}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    await exited;
  };
  // Until it answers (any status: the origin may still be starting), or it exits, at most 15 s.
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}); see ${stateDir}/error.log`);
    try {
      await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
      return { url, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`nginx did not answer on ${url}; see ${stateDir}/error.log`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const listen = process.env.NGINX_LISTEN ?? '127.0.0.1:8080';
  const workers = process.env.NGINX_WORKER_PROCESSES ?? 'auto';
  const { url, stop } = await startNginx({ listen, origin: process.env.WEB_ORIGIN ?? '127.0.0.1:3000', workers: workers === 'auto' ? 'auto' : Number(workers), stdio: 'inherit' });
  console.log(`nginx in front of ${process.env.WEB_ORIGIN ?? '127.0.0.1:3000'}: ${url} (Ctrl-C stops it)`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void stop().then(() => process.exit(0)));
}
