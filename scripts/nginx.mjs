#!/usr/bin/env node
/**
 * nginx from Debian's packages as the shared HTTP cache in front of a web origin (ADR 053),
 * configured from the repository's own deploy/nginx/nginx.conf.template (scripts/engines.mjs).
 * Run it to try the cache in front of `npm start`:
 *
 *   NGINX_LISTEN=127.0.0.1:8080 WEB_ORIGIN=127.0.0.1:3000 node scripts/nginx.mjs
 *
 * (nginx at /usr/sbin/nginx, or NGINX_PATH; the web origin with TRUST_PROXY=1.)
 */
import { fileURLToPath } from 'node:url';
import { startNginx } from './engines.mjs';

export { startNginx };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const listen = process.env.NGINX_LISTEN ?? '127.0.0.1:8080';
  const origin = process.env.WEB_ORIGIN ?? '127.0.0.1:3000';
  const workers = process.env.NGINX_WORKER_PROCESSES ?? 'auto';
  const { url, stop } = await startNginx({ listen, origin, workers: workers === 'auto' ? 'auto' : Number(workers), stdio: 'inherit' });
  console.log(`nginx in front of ${origin}: ${url} (Ctrl-C stops it)`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void stop().then(() => process.exit(0)));
}
