#!/usr/bin/env node
/**
 * Velvet Rope benchmarks (not run in CI or tests): `npm run bench [-- --quick] [-- --json]`.
 *
 *   1. First-load weight of the landing page `/`: JS and CSS it loads (gzip -9), fonts it preloads.
 *   2. Landing SSR throughput against the same HTML served as a static file by the same server.
 *   3. API `registrationCodeDetails` at 50 connections (and a check that nothing is rate-limited).
 *   4. Landing SSR with `?rc=WELCOME2026` (one API round trip per page).
 *
 * Starts the production build (`scripts/start.mjs`) on 127.0.0.1:3410 (web) and :9410 (API) with a
 * throw-away data directory, and stops it again whatever happens. See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureAnchorPage, printAnchorComparison } from './lib/anchor-page.mjs';
import { measureFirstLoad } from './lib/assets.mjs';
import { kb, num, printTable } from './lib/format.mjs';
import { load, warmUp } from './lib/load.mjs';
import { ensureBuild, startProduct } from './lib/product.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const WEB_PORT = 3410;
const API_PORT = 9410;
const REGISTRATION_CODE = 'WELCOME2026';
const STATIC_DIR = path.join(root, 'apps/web/build/client/__bench');
const STATIC_PATH = '/__bench/landing.html';
const API_QUERY =
  'query checkRegistrationCode($registrationCode: String!) { registrationCodeDetails(registrationCode: $registrationCode) { errors errorDetails { error } invitorName countryOptions { isoCode termsPkString dataPolicyPkString } } }';
const API_BODY = JSON.stringify({ query: API_QUERY, variables: { registrationCode: REGISTRATION_CODE } });

const args = new Set(process.argv.slice(2));
if (args.has('--help') || args.has('-h')) {
  console.log(`Usage: npm run bench [-- --quick] [-- --json] [-- --rebuild]

  --quick    3 s per load run (1 s warm-up) instead of 10 s (3 s warm-up)
  --json     also write bench/results/<timestamp>.json
  --rebuild  run npm run build first even when a build exists`);
  process.exit(0);
}
for (const arg of args) {
  if (!['--quick', '--json', '--rebuild'].includes(arg)) {
    console.error(`Unknown option ${arg} (try --help)`);
    process.exit(2);
  }
}
const quick = args.has('--quick');
const settings = {
  quick,
  duration: quick ? 3 : 10,
  warmUp: quick ? 1 : 3,
  webConnections: 10,
  apiConnections: 50,
};

function machineInfo() {
  const cpus = os.cpus();
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'apps', 'packages', 'scripts'], { cwd: root, encoding: 'utf8' });
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Number((os.totalmem() / 1024 ** 3).toFixed(1)),
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    commit: git.status === 0 ? `${git.stdout.trim()}${dirty.stdout.trim() ? ' (uncommitted changes)' : ''}` : 'unknown',
  };
}

/** Cleanup that must happen however the run ends. */
const cleanups = new Set();
const removeStaticCopy = () => rmSync(STATIC_DIR, { recursive: true, force: true });
let interrupted = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers…`);
    Promise.allSettled([...cleanups].map((fn) => fn())).finally(() => process.exit(130));
  });
}

async function main() {
  const startedAt = new Date();
  const machine = machineInfo();
  console.log(`Velvet Rope benchmarks — ${startedAt.toISOString()}`);
  console.log(
    `Machine: Node ${machine.node}, ${machine.platform}, ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, load ${machine.loadAverage.join(' ')}, commit ${machine.commit}`,
  );
  console.log(
    `Mode: ${quick ? 'quick' : 'full'} — ${settings.duration} s per run after ${settings.warmUp} s warm-up; web ${settings.webConnections} connections, API ${settings.apiConnections}`,
  );

  const build = ensureBuild(root, { force: args.has('--rebuild') });
  const builtAt = statSync(path.join(root, 'apps/web/build/server/index.js')).mtime.toISOString();
  console.log(`Build: apps/web/build from ${builtAt}${build.built ? ' (just built)' : ''}`);
  if (build.staleWarning) console.warn(`Warning: ${build.staleWarning}`);
  console.log('');

  /** @type {() => Promise<void>} */
  let stopProduct = async () => undefined;
  const product = await startProduct(root, {
    webPort: WEB_PORT,
    apiPort: API_PORT,
    onSpawn(started) {
      stopProduct = () => started.stop();
      cleanups.add(stopProduct);
      cleanups.add(removeStaticCopy);
      process.on('exit', () => {
        removeStaticCopy();
        started.stopNow();
      });
    },
  });

  const landingUrl = `${product.webUrl}/`;
  const load$ = (/** @type {string} */ label, /** @type {Parameters<typeof load>[0]} */ options) => {
    console.log(`  ${label}: ${settings.warmUp} s warm-up, ${settings.duration} s measured…`);
    return warmUp({ ...options, duration: settings.warmUp }).then(() => load(options));
  };

  try {
    // 1. First-load weight.
    const weight = await measureFirstLoad(landingUrl);
    const anchor = await measureAnchorPage(root);

    // 2. SSR against the same bytes as a static file (same server, same middleware, no rendering).
    console.log('Load runs:');
    let ssr;
    let staticFile;
    try {
      mkdirSync(STATIC_DIR, { recursive: true });
      writeFileSync(path.join(STATIC_DIR, 'landing.html'), weight.html);
      const check = await fetch(`${product.webUrl}${STATIC_PATH}`, { headers: { 'accept-encoding': 'identity' } });
      const checkBody = await check.text();
      if (!check.ok || checkBody !== weight.html) {
        throw new Error(`${STATIC_PATH} is not served as saved (status ${check.status}); is express.static still serving build/client?`);
      }
      ssr = await load$('SSR /', { url: landingUrl, connections: settings.webConnections, duration: settings.duration });
      staticFile = await load$(`static ${STATIC_PATH}`, {
        url: `${product.webUrl}${STATIC_PATH}`,
        connections: settings.webConnections,
        duration: settings.duration,
      });
    } finally {
      removeStaticCopy();
    }

    // 3. The API query, with every response checked for rate limiting.
    const apiUrl = `${product.apiUrl}/graphql`;
    const apiHeaders = { 'content-type': 'application/json' };
    const probe = await fetch(apiUrl, { method: 'POST', headers: apiHeaders, body: API_BODY });
    /** @type {{ data?: { registrationCodeDetails?: { errors: string[], invitorName?: string } }, errors?: unknown[] }} */
    const probeJson = await probe.json();
    const details = probeJson.data?.registrationCodeDetails;
    if (!probe.ok || !details || details.errors.length > 0) {
      throw new Error(`registrationCodeDetails(${REGISTRATION_CODE}) does not answer as expected: ${JSON.stringify(probeJson).slice(0, 500)}`);
    }
    const apiCheck = { responses: 0, rateLimited: 0, unexpected: 0, sample: '' };
    const api = await load$('API registrationCodeDetails', {
      url: apiUrl,
      method: 'POST',
      headers: apiHeaders,
      body: API_BODY,
      connections: settings.apiConnections,
      duration: settings.duration,
      onResponse(status, text) {
        apiCheck.responses++;
        if (text.includes('RATE_LIMITED')) apiCheck.rateLimited++;
        else if (status !== 200 || !text.includes('"errors":[]')) {
          apiCheck.unexpected++;
          apiCheck.sample ||= `${status} ${text.slice(0, 300)}`;
        }
      },
    });

    // 4. Landing with an invitation code: the loader asks the API once per page.
    const rcUrl = `${product.webUrl}/?rc=${REGISTRATION_CODE}`;
    const rcPage = await (await fetch(rcUrl)).text();
    const rcResolved = Boolean(details.invitorName && rcPage.includes(details.invitorName));
    const withCode = await load$(`SSR /?rc=${REGISTRATION_CODE}`, { url: rcUrl, connections: settings.webConnections, duration: settings.duration });

    report({ startedAt, machine, builtAt, weight, anchor, ssr, staticFile, api, apiCheck, withCode, rcResolved });
  } catch (error) {
    const tail = product.logTail().trim();
    if (tail) console.error(`\nLast output of the product:\n${tail}\n`);
    throw error;
  } finally {
    await product.stop();
    cleanups.delete(stopProduct);
  }
}

/**
 * Prints the tables (and writes the JSON file with --json).
 * @param {{ startedAt: Date, machine: ReturnType<typeof machineInfo>, builtAt: string, weight: Awaited<ReturnType<typeof measureFirstLoad>>,
 *   anchor: Awaited<ReturnType<typeof measureAnchorPage>>,
 *   ssr: import('./lib/load.mjs').LoadResult, staticFile: import('./lib/load.mjs').LoadResult,
 *   api: import('./lib/load.mjs').LoadResult, apiCheck: { responses: number, rateLimited: number, unexpected: number, sample: string },
 *   withCode: import('./lib/load.mjs').LoadResult, rcResolved: boolean }} r
 */
function report({ startedAt, machine, builtAt, weight, anchor, ssr, staticFile, api, apiCheck, withCode, rcResolved }) {
  const byKind = (/** @type {string} */ kind) => weight.assets.filter((a) => a.kind === kind);
  const sum = (/** @type {{ raw: number, gzip: number }[]} */ list, /** @type {'raw' | 'gzip'} */ key) => list.reduce((total, a) => total + a[key], 0);
  const js = byKind('js');
  const css = byKind('css');
  const fonts = byKind('font');
  const viaImport = js.filter((a) => a.via === 'static import');

  console.log('\n1. Landing page / — first load (gzip level 9 of each file, as fetched once)');
  printTable(
    ['what', 'files', 'raw', 'gzip -9'],
    [
      ['JavaScript', js.length, kb(sum(js, 'raw')), kb(sum(js, 'gzip'))],
      ['CSS', css.length, kb(sum(css, 'raw')), kb(sum(css, 'gzip'))],
      ['Fonts preloaded (raw)', fonts.length, kb(sum(fonts, 'raw')), '–'],
      ['HTML document', 1, kb(weight.htmlRaw), kb(weight.htmlGzip)],
    ],
  );
  console.log(`  JS + CSS gzipped: ${kb(sum(js, 'gzip') + sum(css, 'gzip'))} (${num(sum(js, 'gzip') + sum(css, 'gzip'))} bytes)`);
  const jsAnchor = printAnchorComparison(weight, anchor, kb);
  console.log(`  Inline <script> in the HTML (hydration data, manifest; not counted as JS above): ${kb(weight.inlineScriptBytes)} raw`);
  console.log('\n  Biggest JavaScript chunks');
  printTable(
    ['chunk', 'raw', 'gzip -9', 'share of JS gzip'],
    [...js]
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 5)
      .map((a) => [a.path, kb(a.raw), kb(a.gzip), `${num((100 * a.gzip) / sum(js, 'gzip'), 1)}%`]),
  );
  if (fonts.length > 0) console.log(`\n  Fonts preloaded: ${fonts.map((f) => `${path.basename(f.path)} (${num(f.raw)} B)`).join(', ')}`);
  if (viaImport.length > 0) console.log(`  Not named in the HTML but statically imported (counted): ${viaImport.map((a) => a.path).join(', ')}`);
  if (weight.skipped.length > 0) console.log(`  Not fetched: ${weight.skipped.map((s) => `${s.url} (${s.reason})`).join(', ')}`);
  console.log(`  Lazy chunks referenced by import() but not loaded first: ${weight.lazyImports.length}`);

  const row = (/** @type {string} */ label, /** @type {import('./lib/load.mjs').LoadResult} */ r) => [
    label,
    r.connections,
    num(r.requestsPerSecond, 0),
    num(r.p50),
    num(r.p99),
    num(r.latencyMean, 2),
    num(r.requests),
    num(r.non2xx),
    num(r.errors),
  ];
  console.log(`\n2–4. Load (autocannon in-process, ${settings.duration} s per row after ${settings.warmUp} s warm-up; latency in ms)`);
  printTable(
    ['target', 'conns', 'req/s', 'p50', 'p99', 'mean', 'requests', 'non-2xx', 'errors'],
    [
      row('SSR  GET /', ssr),
      row(`static GET ${STATIC_PATH}`, staticFile),
      row('API  POST /graphql registrationCodeDetails', api),
      row(`SSR  GET /?rc=${REGISTRATION_CODE}`, withCode),
    ],
  );
  const ratio = ssr.requestsPerSecond / staticFile.requestsPerSecond;
  console.log(
    `\n  SSR / static: ${num(ratio, 3)} of the static req/s (static serves ${num(1 / ratio, 1)}× as many); mean latency ${num(ssr.latencyMean, 2)} ms vs ${num(staticFile.latencyMean, 2)} ms`,
  );
  console.log(
    `  SSR with ?rc= vs without: ${num(withCode.requestsPerSecond / ssr.requestsPerSecond, 3)} of the req/s; invitation shown on the page: ${rcResolved ? 'yes' : 'NO (check the loader)'}`,
  );
  const limitedNote = apiCheck.rateLimited > 0 ? ' ← RATE-LIMITED: was RATE_LIMIT_CODE_CHECKS_PER_MINUTE applied?' : '';
  console.log(
    `  API responses checked: ${num(apiCheck.responses)}; rate-limited: ${num(apiCheck.rateLimited)}${limitedNote}; other unexpected: ${num(apiCheck.unexpected)}${apiCheck.sample ? ` (e.g. ${apiCheck.sample})` : ''}`,
  );
  const failures = [ssr, staticFile, api, withCode].filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failures.length > 0 || apiCheck.rateLimited > 0 || apiCheck.unexpected > 0) {
    console.log('  Warning: some responses were not plain successes — treat the figures above with care.');
    process.exitCode = 1;
  }

  if (args.has('--json')) {
    const dir = path.join(here, 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    const data = {
      date: startedAt.toISOString(),
      machine,
      builtAt,
      settings,
      jsAnchor,
      landingWeight: {
        url: '/',
        js: { files: js.length, raw: sum(js, 'raw'), gzip: sum(js, 'gzip') },
        css: { files: css.length, raw: sum(css, 'raw'), gzip: sum(css, 'gzip') },
        fontsPreloaded: { files: fonts.length, raw: sum(fonts, 'raw') },
        html: { raw: weight.htmlRaw, gzip: weight.htmlGzip, inlineScriptBytes: weight.inlineScriptBytes },
        assets: weight.assets.map(({ path: p, kind, via, raw, gzip }) => ({ path: p, kind, via, raw, gzip })),
        skipped: weight.skipped,
        lazyImports: weight.lazyImports,
      },
      load: { ssr, static: staticFile, api, ssrWithCode: withCode, ssrToStaticRatio: ratio },
      apiCheck,
      rcResolved,
    };
    writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
    console.log(`\nWrote ${path.relative(root, file)}`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
