#!/usr/bin/env node
/**
 * Lighthouse mobile performance of the five pages issues 11 and 19 name, each a first visit that
 * sees the consent banner (`npm run bench:lighthouse [-- --runs 3] [-- --rebuild] [-- --cmp-off]`;
 * not run in CI or tests). `npm run bench` measures the same in its `lighthouse` section; this
 * script is for those runs alone, other pages (`--pages`) and the consent manager's cost.
 *
 * Starts the production build (scripts/start.mjs on 127.0.0.1:3460 and :9460, or the ports in
 * BENCH_LIGHTHOUSE_PORTS="web,api"; a fresh data directory seeded with the demo data, so
 * WELCOME2026 is valid) and runs the `lighthouse` CLI (mobile, simulated throttling,
 * performance only) in Debian's Chromium with a fresh profile per run: one warm-up run per page,
 * then `--runs` counted runs. Prints every run's score, FCP, LCP, TBT and CLS and the medians.
 * `--cmp-off` also measures `/` with CMP_ENABLED=false (issue 5: the consent manager may cost at
 * most 2 points) in a second start of the product.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROME, LIGHTHOUSE_GOAL, LIGHTHOUSE_PAGES, lighthouseLine, lighthousePages } from './lib/lighthouse.mjs';
import { ensureBuild, startProduct } from './lib/product.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const [WEB_PORT, API_PORT] = (process.env.BENCH_LIGHTHOUSE_PORTS ?? '3460,9460').split(',').map(Number);
const ALLOWED_CMP_DROP = 2;

const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const runs = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1]) || 3) : 3;
const pagesArg = args.indexOf('--pages');
const pages = pagesArg >= 0 ? String(args[pagesArg + 1]).split(',') : LIGHTHOUSE_PAGES;
if (args.includes('--help')) {
  console.log('Usage: npm run bench:lighthouse [-- --runs N] [-- --pages /,/de] [-- --rebuild] [-- --cmp-off]');
  process.exit(0);
}

/** Every page of `list` on one start of the product. */
async function measure(list, env) {
  let product;
  const stopNow = () => product?.stopNow();
  process.once('exit', stopNow);
  try {
    product = await startProduct(root, { webPort: WEB_PORT, apiPort: API_PORT, env, onSpawn: (p) => (product = p) });
    return await lighthousePages({ root, webUrl: product.webUrl, pages: list, runs, log: console.log });
  } finally {
    await product?.stop();
    process.off('exit', stopNow);
  }
}

const build = ensureBuild(root, { force: args.includes('--rebuild') });
if (build.staleWarning) console.warn(build.staleWarning);
console.log(`Lighthouse (mobile, simulated throttling, consent banner showing) — ${runs} run(s) per page after a warm-up, Chromium ${CHROME}\n`);
const results = await measure(pages, { CMP_ENABLED: 'true' });
console.log(`\n  median of ${runs}${' '.repeat(36)}score`);
for (const r of results) console.log(lighthouseLine(r.page, r.median));
const allMet = results.every((r) => r.median.score >= LIGHTHOUSE_GOAL);
const cls0 = results.every((r) => r.median.cls === 0);
console.log(`\n  goal (issue 19 §5): ${LIGHTHOUSE_GOAL} or more on every page: ${allMet ? 'met' : 'not met'}; CLS 0 everywhere: ${cls0 ? 'met' : 'not met'}`);

if (args.includes('--cmp-off')) {
  const [off] = await measure(['/'], { CMP_ENABLED: 'false' });
  const on = results.find((r) => r.page === '/') ?? (await measure(['/'], { CMP_ENABLED: 'true' }))[0];
  const drop = off.median.score - on.median.score;
  console.log(`\n  / with the consent manager: ${on.median.score}, without: ${off.median.score} (${drop <= ALLOWED_CMP_DROP ? 'within' : 'MORE than'} the allowed drop of ${ALLOWED_CMP_DROP})`);
  if (drop > ALLOWED_CMP_DROP) process.exitCode = 1;
}
