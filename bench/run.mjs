#!/usr/bin/env node
/**
 * Velvet Rope benchmarks (not run in CI or tests): `npm run bench [-- --quick] [-- --only a,b]`.
 *
 * Every figure is measured beside its anchor, started by this script in the same run, and
 * printed as a ratio to it with both absolute numbers, the goal and whether it is met; then a
 * summary of all figures, also written to bench/results/<time>.json (git-ignored). The sections
 * (bench/lib/*-section.mjs) run in the order of SECTIONS below: those that need the product run
 * while it is up (scripts/start.mjs: web, api and worker on SQLite, a throw-away data directory),
 * the others after it stopped. See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSection } from './lib/api-section.mjs';
import { clusterSection } from './lib/cluster-section.mjs';
import { codeSection } from './lib/code-section.mjs';
import { lighthouseSection } from './lib/lighthouse-section.mjs';
import { load, warmUp } from './lib/load.mjs';
import { ensureBuild, startProduct } from './lib/product.mjs';
import { registerOpenLoopSection } from './lib/open-loop-section.mjs';
import { registerPostgresSection, registerSqliteSection } from './lib/register-section.mjs';
import { printSummary } from './lib/sections.mjs';
import { sharedCacheSection } from './lib/shared-cache-section.mjs';
import { ssrSection } from './lib/ssr-section.mjs';
import { weightSection } from './lib/weight-section.mjs';

/**
 * The sections, in the order they run. Sections that need the product run while it is up;
 * Lighthouse before any load run (it simulates throttling from this machine's own timings); keep
 * register-sqlite the last of them: it leaves thousands of activation emails in the outbox,
 * which the product's worker would be sending during any later measurement.
 * @type {import('./lib/sections.mjs').Section[]}
 */
const SECTIONS = [
  weightSection,
  lighthouseSection,
  ssrSection,
  sharedCacheSection,
  apiSection,
  registerSqliteSection,
  registerPostgresSection,
  registerOpenLoopSection,
  clusterSection,
  codeSection,
];

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

const USAGE = `Usage: npm run bench [-- --quick] [-- --only ${SECTIONS.map((s) => s.name).join(',')}] [-- --rebuild]

  --quick    3 s per load run (1 s warm-up) instead of 10 s (3 s warm-up)
  --only     run only these sections (comma-separated)
  --rebuild  run npm run build first even when a build exists

  Ports: BENCH_WEB_PORT (default 3410) and BENCH_API_PORT (default 9410) for the product; the
  anchors use BENCH_WEB_PORT + 1 and BENCH_API_PORT + 1, nginx in front BENCH_WEB_PORT + 2, the
  API on PostgreSQL BENCH_API_PORT + 2.
  PostgreSQL: BENCH_DATABASE_URL (default TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test).`;

/** @returns {{ quick: boolean, rebuild: boolean, only: Set<string> | null }} */
function parseArgs(argv) {
  const options = { quick: false, rebuild: false, only: /** @type {Set<string> | null} */ (null) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg === '--quick') options.quick = true;
    else if (arg === '--rebuild') options.rebuild = true;
    else if (arg === '--json') {
      // Kept for old habits: the JSON file is always written now.
    } else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      options.only = new Set((value ?? '').split(',').map((s) => s.trim()).filter(Boolean));
      const unknown = [...options.only].filter((name) => !SECTIONS.some((s) => s.name === name));
      if (unknown.length > 0 || options.only.size === 0) {
        console.error(`Unknown section ${unknown.join(', ') || '(none given)'}; sections: ${SECTIONS.map((s) => s.name).join(', ')}`);
        process.exit(2);
      }
    } else {
      console.error(`Unknown option ${arg} (try --help)`);
      process.exit(2);
    }
  }
  return options;
}

/** @param {string | undefined} value @param {number} fallback */
function port(value, fallback) {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1024 || number > 65530) {
    console.error(`Not a usable port: ${value}`);
    process.exit(2);
  }
  return number;
}

const options = parseArgs(process.argv.slice(2));
const webPort = port(process.env.BENCH_WEB_PORT, 3410);
const apiPort = port(process.env.BENCH_API_PORT, 9410);
/** @type {import('./lib/sections.mjs').Ports} */
const ports = { web: webPort, api: apiPort, htmlAnchor: webPort + 1, nginx: webPort + 2, routerAnchor: webPort + 3, yogaAnchor: apiPort + 1, apiAlone: apiPort + 2 };
/** @type {import('./lib/sections.mjs').Settings} */
const settings = {
  quick: options.quick,
  duration: options.quick ? 3 : 10,
  warmUp: options.quick ? 1 : 3,
  webConnections: 10,
  apiConnections: 50,
  registerConnections: 20,
};
const sections = SECTIONS.filter((s) => !options.only || options.only.has(s.name));

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

/** Clean-ups that must happen however the run ends (servers, anchors, the PostgreSQL schema, temporary files). */
const cleanups = new Set();
/** @param {() => unknown} cleanup */
const onCleanup = (cleanup) => {
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
};
const runCleanups = () => Promise.allSettled([...cleanups].map((fn) => fn()));
let interrupted = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers…`);
    runCleanups().finally(() => process.exit(130));
  });
}

/** @type {import('./lib/sections.mjs').SectionContext['measure']} */
async function measure(label, loadOptions) {
  console.log(`  ${label}: ${settings.warmUp} s warm-up, ${settings.duration} s measured…`);
  await warmUp({ ...loadOptions, duration: settings.warmUp });
  return load(loadOptions);
}

async function main() {
  const startedAt = new Date();
  const machine = machineInfo();
  console.log(`Velvet Rope benchmarks — ${startedAt.toISOString()}`);
  console.log(
    `Machine: Node ${machine.node}, ${machine.platform}, ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, load ${machine.loadAverage.join(' ')}, commit ${machine.commit}`,
  );
  console.log(
    `Mode: ${settings.quick ? 'quick' : 'full'} — ${settings.duration} s per load run after ${settings.warmUp} s warm-up; connections: web ${settings.webConnections}, API ${settings.apiConnections}, register ${settings.registerConnections}`,
  );
  console.log(`Sections: ${sections.map((s) => s.name).join(', ')}; ports: product ${ports.web}/${ports.api}, anchors ${ports.htmlAnchor}/${ports.yogaAnchor}, API alone ${ports.apiAlone}`);
  // Sections that run the API alone need only its build (e.g. --only register-postgres).
  const apiOnly = !sections.some((s) => s.needs === 'product');
  const build = ensureBuild(root, { force: options.rebuild, apiOnly });
  const builtAt = statSync(path.join(root, apiOnly ? 'apps/api/dist/main.js' : 'apps/web/build/server/index.js')).mtime.toISOString();
  console.log(`Build: from ${builtAt}${build.built ? ' (just built)' : ''}`);
  if (build.staleWarning) console.warn(`Warning: ${build.staleWarning}`);

  const workDir = mkdtempSync(path.join(os.tmpdir(), 'velvet-bench-work-'));
  const forgetWorkDir = onCleanup(() => rmSync(workDir, { recursive: true, force: true }));
  process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));

  /** @type {import('./lib/product.mjs').Product | undefined} */
  let product;
  /** @type {(() => void) | undefined} */
  let forgetProduct;
  const stopProduct = async () => {
    await product?.stop();
    forgetProduct?.();
    product = undefined;
  };
  /** @type {{ name: string, title: string, result: import('./lib/sections.mjs').SectionResult }[]} */
  const results = [];
  let suspect = false;
  try {
    const lastNeedingProduct = sections.findLastIndex((s) => s.needs === 'product');
    for (const [index, section] of sections.entries()) {
      if (section.needs === 'product' && !product) {
        console.log(`\nStarting the product on ${ports.web}/${ports.api}…`);
        product = await startProduct(root, {
          webPort: ports.web,
          apiPort: ports.api,
          onSpawn(started) {
            forgetProduct = onCleanup(() => started.stop());
            process.on('exit', () => started.stopNow());
          },
        });
      }
      if (section.needs === 'alone') await stopProduct();
      console.log(`\n${section.title}`);
      let result;
      try {
        result = await section.run({ root, workDir, settings, ports, product: section.needs === 'product' ? product : undefined, measure, onCleanup });
      } catch (error) {
        const tail = product?.logTail().trim();
        if (tail) console.error(`\nLast output of the product:\n${tail.slice(-4000)}\n`);
        throw error;
      }
      console.log('');
      for (const line of result.lines) console.log(line);
      if (result.suspect) {
        suspect = true;
        console.log('  Warning: some responses were not plain successes — treat these figures with care.');
      }
      results.push({ name: section.name, title: section.title, result });
      if (index === lastNeedingProduct) await stopProduct();
    }
  } finally {
    await stopProduct();
  }

  const figures = results.flatMap((r) => r.result.figures);
  console.log(`\nSummary — ${settings.quick ? 'quick' : 'full'} run, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the end (figures from a busy machine are not comparable)`);
  printSummary(figures);

  const dir = path.join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const data = {
    date: startedAt.toISOString(),
    machine,
    loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))),
    builtAt,
    settings,
    figures,
    sections: Object.fromEntries(results.map((r) => [r.name, r.result.data ?? null])),
  };
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(root, file)}`);
  rmSync(workDir, { recursive: true, force: true });
  forgetWorkDir();
  if (suspect) process.exitCode = 1;
}

main().catch(async (error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  await runCleanups();
  process.exitCode = 1;
});
