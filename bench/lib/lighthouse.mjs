/**
 * Lighthouse mobile performance of pages of a running product (`lighthouse` CLI: mobile,
 * simulated throttling, performance only) in Debian's Chromium with a fresh profile per run, so
 * the consent banner shows as on a first visit: one warm-up run per page (the server's first
 * render and caches), then `runs` counted runs, and their medians. Used by `npm run
 * bench:lighthouse` and by the bench's `lighthouse` section.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathWithThisNode } from './product.mjs';

export const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';
/** The five public pages of issues 11 and 19; WELCOME2026 is the demo seed's code. */
export const LIGHTHOUSE_PAGES = ['/', '/de', '/?rc=WELCOME2026', '/membership-interest/apply', '/registration/formstarted?rc=WELCOME2026'];
/** Issue 19 §5: each page's median score at least this. */
export const LIGHTHOUSE_GOAL = 98;

/**
 * @typedef {object} LighthouseRun
 * @property {number} score 0–100
 * @property {number} fcp ms
 * @property {number} lcp ms
 * @property {number} tbt ms
 * @property {number} cls
 * @property {number} si ms
 */

/** Whether Lighthouse can run here (Chromium installed). */
export const chromiumMissing = () => (existsSync(CHROME) ? null : `no Chromium at ${CHROME} (apt-get install chromium, or CHROMIUM_PATH)`);

const run = promisify(execFile);

/**
 * One Lighthouse run, tried again (at most twice, said so) when Lighthouse itself fails to record the page.
 * @param {string} root @param {string} url @returns {Promise<LighthouseRun>}
 */
async function lighthouse(root, url) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(root, url);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`  (Lighthouse failed, trying again: ${String(error).split('\n')[0].slice(0, 200)})`);
    }
  }
}

/**
 * Asynchronous, so that the bench's own connections (kept alive to the product) see the server
 * close them meanwhile, instead of finding them closed at the next request.
 * @param {string} root @param {string} url @returns {Promise<LighthouseRun>}
 */
async function lighthouseOnce(root, url) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'velvet-lh-profile-'));
  const out = path.join(profile, 'report.json');
  try {
    await run(
      path.join(root, 'node_modules/.bin/lighthouse'),
      [url, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${out}`, `--chrome-flags=${CHROME_FLAGS} --user-data-dir=${profile}/chrome`],
      { cwd: root, env: { ...process.env, PATH: pathWithThisNode(), CHROME_PATH: CHROME }, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
    ).catch((/** @type {{ code?: number, signal?: string, stderr?: string }} */ error) => {
      throw new Error(`lighthouse failed (exit ${error.code ?? error.signal}): ${String(error.stderr ?? error).slice(-2000)}`);
    });
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const audit = (/** @type {string} */ id) => report.audits[id]?.numericValue ?? NaN;
    return {
      score: Math.round((report.categories.performance.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      si: audit('speed-index'),
    };
  } finally {
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One run or a median as one line. @param {string} label @param {LighthouseRun} r */
export const lighthouseLine = (label, r) =>
  `  ${label.padEnd(46)} ${String(r.score).padStart(3)}  FCP ${String(Math.round(r.fcp)).padStart(5)} ms  LCP ${String(Math.round(r.lcp)).padStart(5)} ms  TBT ${String(Math.round(r.tbt)).padStart(4)} ms  CLS ${r.cls.toFixed(3)}  SI ${Math.round(r.si)} ms`;

/**
 * Every page of `pages` on the product at `webUrl`: a warm-up run, then `runs` counted runs
 * each, every run printed through `log` as it ends.
 * @param {{ root: string, webUrl: string, pages: string[], runs: number, log: (line: string) => void }} options
 * @returns {Promise<{ page: string, runs: LighthouseRun[], median: LighthouseRun }[]>}
 */
export async function lighthousePages({ root, webUrl, pages, runs, log }) {
  const results = [];
  for (const page of pages) {
    const url = `${webUrl}${page}`;
    await lighthouse(root, url);
    const each = [];
    for (let i = 0; i < runs; i++) {
      const r = await lighthouse(root, url);
      log(lighthouseLine(`${page} run ${i + 1}`, r));
      each.push(r);
    }
    const keys = /** @type {const} */ (['score', 'fcp', 'lcp', 'tbt', 'cls', 'si']);
    results.push({ page, runs: each, median: /** @type {LighthouseRun} */ (Object.fromEntries(keys.map((k) => [k, median(each.map((r) => r[k]))]))) });
  }
  return results;
}
