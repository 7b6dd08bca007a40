/**
 * Public pages through a standard shared cache (ADR 053, issue 19 §5): nginx from Debian's
 * packages in front of the product, configured from deploy/nginx/nginx.conf.template
 * (scripts/nginx.mjs), against the bare `node:http` floor sending the same bytes
 * (bench/anchors/html-server.mjs), both as browsers ask (compressed). Goal: at least 1.0 of
 * the floor. nginx keys a page by its experiment bucket (256 of them), so before each page is
 * measured the cache is filled — asked until 512 answers in a row were hits — and the run
 * measures the steady state: hits, plus the copies that expire during it (a minute for the
 * shop window, 10 s for an invitation, ADR 053) served stale while the origin renders them anew.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startNginx } from '../../scripts/nginx.mjs';
import { startAnchor } from './anchors.mjs';
import { num } from './format.mjs';
import { anyFailed, loadTable, ratioGoal, throughput } from './sections.mjs';

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd', 'accept-language': 'de-DE,de;q=0.9' };
const PAGES = ['/', '/de', '/?rc=WELCOME2026', '/de?rc=WELCOME2026'];
/** nginx's worker processes in this section (deploy/nginx/nginx.conf.template's NGINX_WORKER_PROCESSES). */
const NGINX_WORKERS = 1;

/** Answers in a row that must be hits before a page is measured; at most this long to get there. */
const FILLED_AFTER_HITS = 512;
const FILL_LIMIT_MS = 60_000;

/**
 * Asks for `url` (10 at a time, as the measurement does) until FILLED_AFTER_HITS answers in a row
 * were hits, so every bucket's copy is in the cache; returns how many answers and misses it took.
 */
async function fill(url) {
  const started = Date.now();
  let asked = 0;
  let misses = 0;
  let hitsInARow = 0;
  const ask = async () => {
    while (hitsInARow < FILLED_AFTER_HITS && Date.now() - started < FILL_LIMIT_MS) {
      const response = await fetch(url, { headers: BROWSER });
      await response.arrayBuffer();
      asked++;
      if (response.headers.get('x-cache-status') === 'HIT') hitsInARow++;
      else {
        misses++;
        hitsInARow = 0;
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, ask));
  return { asked, misses, filled: hitsInARow >= FILLED_AFTER_HITS, ms: Date.now() - started };
}

/** @type {import('./sections.mjs').Section} */
export const sharedCacheSection = {
  name: 'shared-cache',
  title: 'Public pages through nginx in front (shared HTTP cache) against the bare node:http floor (same bytes)',
  needs: 'product',
  async run({ root, workDir, settings, ports, product, measure, onCleanup }) {
    if (!product) throw new Error('the shared-cache section needs the product');
    // One worker process, as the floor is one node:http process: on a shared machine (the load
    // generator takes a core) a worker per core measures their contention, not the cache.
    const nginx = await startNginx({ listen: `127.0.0.1:${ports.nginx}`, origin: new URL(product.webUrl).host, stateDir: path.join(workDir, 'nginx'), workers: NGINX_WORKERS });
    const forget = onCleanup(nginx.stop);
    try {
      const rows = [];
      const figures = [];
      const results = [];
      const fills = [];
      for (const page of PAGES) {
        const url = `${nginx.url}${page}`;
        const sample = await fetch(url, { headers: { 'accept-language': BROWSER['accept-language'], 'accept-encoding': 'identity' } });
        const html = await sample.text();
        const file = path.join(workDir, `page-${figures.length}.html`);
        writeFileSync(file, html);
        const anchor = await startAnchor(root, 'html-server.mjs', ports.htmlAnchor, [file], onCleanup);
        let floor;
        try {
          floor = await measure(`floor: node:http, ${page} gzip-compressed once`, { url: anchor.url, connections: settings.webConnections, duration: settings.duration, headers: BROWSER, cpu: anchor.cpu });
        } finally {
          await anchor.stop();
        }
        const filled = await fill(url);
        fills.push(`${page} ${filled.filled ? 'filled' : 'NOT filled'} in ${num(filled.ms / 1000, 1)} s (${filled.misses} misses of ${filled.asked})`);
        const cached = await measure(`nginx in front: ${page}`, { url, connections: settings.webConnections, duration: settings.duration, headers: BROWSER });
        const ratio = cached.requestsPerSecond / floor.requestsPerSecond;
        rows.push([`floor: node:http, ${page}`, floor], [`nginx in front, ${page} (${sample.headers.get('cache-control') ?? 'no Cache-Control'})`, cached]);
        figures.push({ id: `sharedCache.${page}`, label: `GET ${page} through nginx`, measured: throughput(cached), anchor: `${throughput(floor)} (node:http, same bytes)`, ratio, goal: ratioGoal(ratio, 1.0) });
        results.push(floor, cached);
      }
      return {
        figures,
        lines: [
          ...loadTable(rows),
          '',
          `  nginx ${ports.nginx} (${NGINX_WORKERS} worker process, as the floor is one process) in front of the web origin ${new URL(product.webUrl).host}; ${settings.webConnections} connections; Accept-Encoding and Accept-Language of a German Chromium.`,
          `  The cache filled before each measurement: ${fills.join('; ')}.`,
          `  Shares of the floor: ${figures.map((f) => `${f.label.replace('GET ', '').replace(' through nginx', '')} ${num(f.ratio ?? 0, 2)}`).join(', ')}.`,
        ],
        data: { results },
        suspect: anyFailed(...results),
      };
    } finally {
      await nginx.stop();
      forget();
    }
  },
};
