/**
 * Public pages through a standard shared cache (ADR 053, issue 19 §5): nginx from Debian's
 * packages in front of the product, configured from deploy/nginx/nginx.conf.template
 * (scripts/nginx.mjs), against the bare `node:http` floor sending the same bytes
 * (bench/anchors/html-server.mjs: the answers nginx gave, header lines and compressed bodies, replayed
 * in the order nginx sent them), both as browsers ask (compressed). Goal: at least 1.0 of
 * the floor. nginx keys a page by the variation of the running experiments the visitor's bucket
 * gets (one of 256 buckets, drawn per request: two copies for the versioned 50/50 test), after
 * asking the origin for it (a kept answer per bucket), so before each page is measured the cache
 * is filled — asked until 512 answers in a row were hits — and the run measures the steady state:
 * hits, plus the copies that expire during it (a minute for the shop window, 10 s for an
 * invitation, ADR 053) served stale while the origin renders them anew.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { startNginx } from '../../scripts/nginx.mjs';
import { startAnchor } from './anchors.mjs';
import { cpuClock } from './cpu.mjs';
import { num } from './format.mjs';
import { anyFailed, cpuText, loadTable, ratioGoal, throughput } from './sections.mjs';

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd', 'accept-language': 'de-DE,de;q=0.9' };
const PAGES = ['/', '/de', '/?rc=WELCOME2026', '/de?rc=WELCOME2026'];
/** nginx's worker processes in this section (deploy/nginx/nginx.conf.template's NGINX_WORKER_PROCESSES). */
const NGINX_WORKERS = 1;

/** Answers in a row that must be hits before a page is measured; at most this long to get there. */
const FILLED_AFTER_HITS = 512;
const FILL_LIMIT_MS = 60_000;

/**
 * Asks for `url` (10 at a time, as the measurement does) until FILLED_AFTER_HITS answers in a row
 * were hits, so every bucket's answer and every variation's copy are in the cache; returns how many answers and misses it took.
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

/**
 * The page as nginx answers a browser, byte for byte: its header lines and its compressed body
 * (fetch would decompress it). The floor replays both, so the two send the same bytes. The copy's cache
 * status is written as a hit's, which is what the measurement gets.
 * @returns {Promise<{ headers: [string, string][], body: Buffer }>}
 */
function recordCompressed(url) {
  return new Promise((resolve, reject) => {
    get(url, { headers: BROWSER }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = response.rawHeaders;
        /** @type {[string, string][]} */
        const headers = [];
        for (let i = 0; i < raw.length; i += 2) headers.push([raw[i], raw[i].toLowerCase() === 'x-cache-status' ? 'HIT' : raw[i + 1]]);
        resolve({ headers, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

/** Answers of nginx the floor replays in turn (see recordAnswers). */
const RECORDED_ANSWERS = 1024;

/**
 * What nginx sends a browser over `count` answers, in the order it sent them: the header lines of
 * the first and the compressed body of every one. nginx answers each request from one of a page's
 * copies (the variation of the bucket it draws), so its bodies may differ from answer to answer; a floor
 * that sent one of them every time would not send the same bytes, and the load generator decodes
 * every body it receives as UTF-8 (autocannon keeps it as a string): the same 10 kB again and again
 * costs it about 20 µs, 256 different ones about 120 µs each (the processor learns the one input's
 * branches), which showed as nginx answering at 0.3 of the floor on a quiet machine.
 * @returns {Promise<{ headers: [string, string][], bodies: Buffer[] }>}
 */
async function recordAnswers(url, count) {
  /** @type {Buffer[]} */
  const bodies = [];
  let first = null;
  const ask = async () => {
    while (bodies.length < count) {
      const answer = await recordCompressed(url);
      first ??= answer;
      bodies.push(answer.body);
    }
  };
  await Promise.all(Array.from({ length: 10 }, ask));
  return { headers: /** @type {{ headers: [string, string][] }} */ (first).headers, bodies: bodies.slice(0, count) };
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
    const stateDir = path.join(workDir, 'nginx');
    const nginx = await startNginx({ listen: `127.0.0.1:${ports.nginx}`, origin: new URL(product.webUrl).host, stateDir, workers: NGINX_WORKERS });
    const forget = onCleanup(nginx.stop);
    // The CPU per answer of nginx (master and worker) and of the product behind it (the copies it
    // renders again as they expire), beside the floor's: the load generator shares the machine, and
    // what it spends per answer shows in req/s, not in these.
    const nginxClock = cpuClock(Number(readFileSync(path.join(stateDir, 'nginx.pid'), 'utf8')), { children: true });
    const productClock = product.cpu;
    const nginxCpu = nginxClock && productClock ? () => nginxClock() + productClock() : null;
    try {
      const rows = [];
      const figures = [];
      const results = [];
      const fills = [];
      const answersSeen = [];
      for (const page of PAGES) {
        const url = `${nginx.url}${page}`;
        const sample = await fetch(url, { headers: { 'accept-language': BROWSER['accept-language'], 'accept-encoding': 'identity' } });
        const html = await sample.text();
        const file = path.join(workDir, `page-${figures.length}.html`);
        writeFileSync(file, html);
        // The cache filled, nginx's answers recorded; the floor replays them in turn.
        const before = await fill(url);
        const recorded = await recordAnswers(url, RECORDED_ANSWERS);
        const distinct = new Set(recorded.bodies.map((body) => body.toString('base64'))).size;
        writeFileSync(`${file}.headers.json`, JSON.stringify(recorded.headers));
        writeFileSync(`${file}.body`, Buffer.concat(recorded.bodies));
        writeFileSync(`${file}.lengths.json`, JSON.stringify(recorded.bodies.map((body) => body.byteLength)));
        const anchor = await startAnchor(root, 'html-server.mjs', ports.htmlAnchor, [file, `${file}.headers.json`, `${file}.body`, `${file}.lengths.json`], onCleanup);
        let floor;
        try {
          floor = await measure(`floor: node:http, ${page} as nginx answers it (same headers, nginx's ${RECORDED_ANSWERS} answers in turn)`, { url: anchor.url, connections: settings.webConnections, duration: settings.duration, headers: BROWSER, cpu: anchor.cpu });
        } finally {
          await anchor.stop();
        }
        // Filled again: copies that expired while the floor was measured (10 s for an invitation).
        const filled = await fill(url);
        answersSeen.push(`${page} ${distinct} different bodies in ${RECORDED_ANSWERS} answers (filled in ${num(before.ms / 1000, 1)} s)`);
        fills.push(`${page} ${filled.filled ? 'filled' : 'NOT filled'} in ${num(filled.ms / 1000, 1)} s (${filled.misses} misses of ${filled.asked})`);
        const cached = await measure(`nginx in front: ${page}`, { url, connections: settings.webConnections, duration: settings.duration, headers: BROWSER, cpu: nginxCpu });
        const ratio = cached.requestsPerSecond / floor.requestsPerSecond;
        rows.push([`floor: node:http, ${page}`, floor], [`nginx in front, ${page} (${sample.headers.get('cache-control') ?? 'no Cache-Control'})`, cached]);
        figures.push({ id: `sharedCache.${page}`, label: `GET ${page} through nginx`, measured: throughput(cached), anchor: `${throughput(floor)} (node:http, same bytes)`, ratio, goal: ratioGoal(ratio, 1.0) });
        // The same comparison by the servers' own work: answers per CPU second (the load generator,
        // which shares the machine and spends more per nginx answer, is not in it). Said beside the
        // req/s figure, never instead of it.
        if (cached.cpuPerRequest && floor.cpuPerRequest) {
          const perCpu = floor.cpuPerRequest / cached.cpuPerRequest;
          figures.push({ id: `sharedCacheCpu.${page}`, label: `  ${page}: answers per CPU second`, measured: `${cpuText(cached)} CPU per answer`, anchor: `${cpuText(floor)} (node:http, same bytes)`, ratio: perCpu, goal: ratioGoal(perCpu, 1.0) });
        }
        results.push(floor, cached);
      }
      return {
        figures,
        lines: [
          ...loadTable(rows),
          '',
          `  nginx ${ports.nginx} (${NGINX_WORKERS} worker process, as the floor is one process) in front of the web origin ${new URL(product.webUrl).host}; ${settings.webConnections} connections; Accept-Encoding and Accept-Language of a German Chromium.`,
          `  The cache filled before each measurement: ${fills.join('; ')}.`,
          `  What the floor replays, recorded from the filled cache: ${answersSeen.join('; ')}.`,
          `  Shares of the floor: ${figures.filter((f) => f.id.startsWith('sharedCache.')).map((f) => `${f.label.replace('GET ', '').replace(' through nginx', '')} ${num(f.ratio ?? 0, 2)}`).join(', ')}.`,
          `  CPU per answer, nginx and the product behind it against the floor (lower is cheaper; the load generator's share of the 2 cores is not in it): ${PAGES.map((page, i) => `${page} ${cpuText(results[2 * i + 1])} vs ${cpuText(results[2 * i])}`).join(', ')}.`,
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
