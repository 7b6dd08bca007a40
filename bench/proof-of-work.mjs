/**
 * Proof-of-work solve time in Chromium (issue 12 §2, ADR 041): challenges issued by the API's own
 * code at the default difficulty, at each level the sign-up rate can reach, solved by the web
 * app's own browser module (apps/web/app/lib/forms/proof-of-work.ts, bundled here with esbuild) in
 * Debian's Chromium. Not part of the tests: `npm run bench:proof-of-work [-- --runs 10]`.
 * Nothing leaves the machine: the page and its /form-challenge answers are served by Playwright.
 */
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';
import { issueChallenge } from '../apps/api/src/domain/proof-of-work.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '8' }, difficulty: { type: 'string', default: '1500' } } });
const runs = Number(values.runs);
const difficulty = Number(values.difficulty);

const bundle = await build({
  stdin: {
    contents: "import { solveProofOfWork } from './apps/web/app/lib/forms/proof-of-work.ts'; window.solve = () => solveProofOfWork({ form: 'REGISTRATION' });",
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  write: false,
  platform: 'browser',
});
const script = bundle.outputFiles[0].text;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
let level = 0;
await page.route('http://localhost/**', async (route) => {
  const url = new URL(route.request().url());
  if (url.pathname === '/form-challenge') {
    const challenge = await issueChallenge({ secret: 'bench-secret-that-is-long-enough-0123456789', form: 'REGISTRATION', difficulty, level, now: new Date() });
    return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ challenge }) });
  }
  return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>proof of work</title>' });
});
await page.goto('http://localhost/');
await page.addScriptTag({ content: script, type: 'module' });
await page.waitForFunction(() => typeof window.solve === 'function');

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
console.log(`Proof of work in Chromium: PBKDF2-SHA-256 x1000 per try, ${runs} runs per level, difficulty ${difficulty}`);
for (const l of [0, 1, 2, 3]) {
  level = l;
  const times = [];
  for (let i = 0; i < runs; i++) {
    const ms = await page.evaluate(async () => {
      const start = performance.now();
      await window.solve();
      return performance.now() - start;
    });
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(`  level ${l} (${difficulty * 2 ** l} tries on average): median ${percentile(times, 0.5).toFixed(0)} ms, mean ${mean.toFixed(0)} ms, slowest ${times.at(-1).toFixed(0)} ms`);
}
await browser.close();
