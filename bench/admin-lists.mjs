#!/usr/bin/env node
/**
 * The admin console's lists and searches under load of data (issue 13's quality bar): every list
 * paginates on the server and answers in < 100 ms with 1 million registrations and 100,000 codes,
 * on SQLite and on PostgreSQL.
 *
 * For each engine: starts the API alone (production build, a fresh data directory; PostgreSQL: a
 * schema of its own, dropped at the end, also on failure or Ctrl-C), seeds it with set-based SQL
 * (bench/lib/admin-lists-seed.mjs), creates and signs in an owner (no second factor), then runs
 * every case of every bench/admin-lists/*.mjs file N times, one after the other, over HTTP, and
 * prints the median and p95 beside the goal. Writes bench/results/admin-lists-<time>.json.
 *
 *   npm run bench:admin-lists                         # full scale, both engines, 50 runs a case
 *   npm run bench:admin-lists -- --scale 0.05         # 5 % of the data (a quick proof that it works)
 *   npm run bench:admin-lists -- --runs 20 --engines sqlite
 *
 * Ports: the API on BENCH_API_PORT (default 9410) + 3. PostgreSQL: BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { seedPlan, seedStatements } from './lib/admin-lists-seed.mjs';
import { ensureBuild, pathWithThisNode, startApi } from './lib/product.mjs';

/**
 * One list or search the console sends, as its web page sends it.
 * @typedef {object} AdminListCase
 * @property {string} label e.g. 'codes: first page, state=valid'
 * @property {string} query the GraphQL document
 * @property {Record<string, unknown> | ((seed: import('./lib/admin-lists-seed.mjs').Seed) => Record<string, unknown>)} [variables]
 *   fixed, or built from the seeded data (seed.sample holds rows that exist)
 */

/** The goal of every case: the issue's "under 100 ms". */
const GOAL_MS = 100;
const WARM_UP_RUNS = 3;

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
const ms = (/** @type {number} */ n) => `${n.toFixed(1)} ms`;

/** Every case of every file of bench/admin-lists/, by file. */
async function loadCases() {
  const dir = path.join(here, 'admin-lists');
  const files = readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort();
  /** @type {{ file: string, cases: AdminListCase[] }[]} */
  const loaded = [];
  for (const file of files) {
    const module = /** @type {{ cases?: AdminListCase[] }} */ (await import(pathToFileURL(path.join(dir, file)).href));
    if (!Array.isArray(module.cases)) throw new Error(`bench/admin-lists/${file} exports no \`cases\` array`);
    loaded.push({ file, cases: module.cases });
  }
  return loaded;
}

/**
 * @param {string} url
 * @param {string | null} token
 * @param {string} query
 * @param {Record<string, unknown>} variables
 */
async function graphql(url, token, query, variables) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  /** @type {{ data?: Record<string, any>, errors?: { message: string }[] }} */
  const json = JSON.parse(text);
  if (response.status !== 200 || json.errors?.length) throw new Error(`HTTP ${response.status}: ${text.slice(0, 400)}`);
  return json;
}

/**
 * Seeds the engine's database in one transaction.
 * @param {'sqlite' | 'postgres'} engine
 * @param {import('./lib/admin-lists-seed.mjs').Seed} seed
 * @param {{ sqliteFile?: string, client?: pg.Client }} target
 */
async function seedDatabase(engine, seed, target) {
  const statements = seedStatements(engine, seed);
  const started = performance.now();
  if (engine === 'sqlite') {
    const db = new Database(/** @type {string} */ (target.sqliteFile), { fileMustExist: true, timeout: 60_000 });
    try {
      const analyze = statements.pop();
      db.transaction(() => {
        for (const statement of statements) db.exec(statement);
      })();
      db.exec(/** @type {string} */ (analyze));
    } finally {
      db.close();
    }
  } else {
    const client = /** @type {pg.Client} */ (target.client);
    const analyze = statements.pop();
    await client.query('begin');
    try {
      for (const statement of statements) await client.query(statement);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
    await client.query(/** @type {string} */ (analyze));
  }
  return performance.now() - started;
}

/**
 * @param {import('./lib/product.mjs').Product} api
 * @returns {Promise<string>} the owner's session token
 */
async function signedInOwner(api) {
  const email = `owner-${randomBytes(4).toString('hex')}@bench.example`;
  const password = `bench ${randomBytes(12).toString('hex')}`;
  const created = spawnSync(process.execPath, [path.join(root, 'apps/api/dist/cli.js'), 'admin', 'create', '--email', email, '--role', 'owner', '--password', password], {
    cwd: root,
    env: { ...api.env, PATH: pathWithThisNode() },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (created.status !== 0) throw new Error(`admin create failed (exit ${created.status ?? created.signal}): ${created.stderr.slice(-1000)}`);
  const login = await graphql(`${api.apiUrl}/graphql`, null, 'mutation l($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token userErrors { code } } }', {
    email,
    password,
  });
  const token = login.data?.adminLogin?.token;
  if (!token) throw new Error(`the owner could not sign in: ${JSON.stringify(login.data)}`);
  return token;
}

/**
 * Runs every case `runs` times, one after the other.
 * @param {string} url
 * @param {string} token
 * @param {{ file: string, cases: AdminListCase[] }[]} files
 * @param {import('./lib/admin-lists-seed.mjs').Seed} seed
 * @param {number} runs
 */
async function measure(url, token, files, seed, runs) {
  /** @type {{ file: string, label: string, median: number | null, p95: number | null, max: number | null, runs: number, error?: string }[]} */
  const results = [];
  for (const { file, cases } of files) {
    for (const listCase of cases) {
      const variables = typeof listCase.variables === 'function' ? listCase.variables(seed) : (listCase.variables ?? {});
      try {
        for (let i = 0; i < WARM_UP_RUNS; i++) await graphql(url, token, listCase.query, variables);
        /** @type {number[]} */
        const times = [];
        for (let i = 0; i < runs; i++) {
          const started = performance.now();
          await graphql(url, token, listCase.query, variables);
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        results.push({ file, label: listCase.label, median: quantile(times, 0.5), p95: quantile(times, 0.95), max: times.at(-1) ?? null, runs });
      } catch (error) {
        results.push({ file, label: listCase.label, median: null, p95: null, max: null, runs: 0, error: String(error).slice(0, 500) });
      }
    }
  }
  return results;
}

/** @type {(() => Promise<void>)[]} */
const cleanups = [];
async function cleanUp() {
  while (cleanups.length > 0) await cleanups.pop()?.().catch((error) => console.error(`clean-up failed: ${error}`));
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up…`);
    void cleanUp().then(() => process.exit(130));
  });
}

/**
 * One engine: start, seed, sign in, measure, stop (and drop the schema).
 * @param {'sqlite' | 'postgres'} engine
 * @param {{ apiPort: number, seed: import('./lib/admin-lists-seed.mjs').Seed, files: { file: string, cases: AdminListCase[] }[], runs: number }} options
 */
async function runEngine(engine, { apiPort, seed, files, runs }) {
  /** @type {pg.Client | undefined} */
  let admin;
  /** @type {Record<string, string>} */
  const env = {};
  let schema = '';
  if (engine === 'postgres') {
    admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
    await admin.connect();
    schema = `velvet_bench_lists_${process.pid}_${randomBytes(3).toString('hex')}`;
    const client = admin;
    cleanups.push(async () => {
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    });
    await admin.query(`create schema ${schema}`);
    await admin.query(`set search_path to ${schema}`);
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.href;
  }
  /** @type {import('./lib/product.mjs').Product | undefined} */
  let api;
  try {
    api = await startApi(root, {
      apiPort,
      env,
      onSpawn: (started) => cleanups.push(() => started.stop()),
    });
    const seedMs = await seedDatabase(engine, seed, { sqliteFile: path.join(api.dataDir, 'velvet.sqlite'), client: admin });
    console.log(`  ${engine}: seeded in ${(seedMs / 1000).toFixed(1)} s`);
    const token = await signedInOwner(api);
    return { seedMs, results: await measure(`${api.apiUrl}/graphql`, token, files, seed, runs) };
  } catch (error) {
    const tail = api?.logTail().trim();
    if (tail) console.error(`\nLast output of the API on ${engine}:\n${tail.slice(-3000)}\n`);
    throw error;
  } finally {
    await cleanUp();
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      runs: { type: 'string', default: '50' },
      engines: { type: 'string', default: 'sqlite,postgres' },
    },
  });
  const scale = Number(values.scale);
  const runs = Number(values.runs);
  if (!(scale > 0 && scale <= 1) || !(Number.isInteger(runs) && runs >= 5)) throw new Error('--scale is a fraction in (0, 1], --runs an integer ≥ 5');
  const engines = /** @type {('sqlite' | 'postgres')[]} */ (values.engines.split(',').filter((e) => e === 'sqlite' || e === 'postgres'));
  const apiPort = Number(process.env.BENCH_API_PORT ?? 9410) + 3;

  const build = ensureBuild(root);
  if (build.staleWarning) console.warn(`Warning: ${build.staleWarning}`);
  const files = await loadCases();
  const seed = seedPlan(scale);
  console.log(`Admin lists: ${files.reduce((n, f) => n + f.cases.length, 0)} cases from ${files.map((f) => f.file).join(', ')}; scale ${scale}`);
  console.log(`  ${Object.entries(seed.counts).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ')}; ${runs} runs a case after ${WARM_UP_RUNS} warm-up runs\n`);

  /** @type {Record<string, Awaited<ReturnType<typeof runEngine>> | { error: string }>} */
  const byEngine = {};
  for (const engine of engines) {
    try {
      byEngine[engine] = await runEngine(engine, { apiPort, seed, files, runs });
    } catch (error) {
      console.error(`  ${engine}: ${String(error).split('\n')[0]}`);
      byEngine[engine] = { error: String(error).slice(0, 1000) };
    }
  }

  const labels = files.flatMap((f) => f.cases.map((c) => ({ file: f.file, label: c.label })));
  const cell = (/** @type {string} */ engine, /** @type {string} */ file, /** @type {string} */ label) => {
    const run = byEngine[engine];
    if (!run || 'error' in run) return { text: 'not measured', met: false };
    const r = run.results.find((x) => x.file === file && x.label === label);
    if (!r || r.median === null || r.p95 === null) return { text: `error: ${r?.error?.slice(0, 60) ?? '?'}`, met: false };
    return { text: `${ms(r.median)} / ${ms(r.p95)}`, met: r.p95 < GOAL_MS };
  };
  const width = Math.max(...labels.map((l) => l.label.length), 10);
  console.log(`\n${'case'.padEnd(width)}  ${engines.map((e) => `${e} median / p95`.padEnd(30)).join('')}goal < ${GOAL_MS} ms`);
  let allMet = true;
  for (const { file, label } of labels) {
    const cells = engines.map((engine) => cell(engine, file, label));
    const met = cells.every((c) => c.met);
    allMet &&= met;
    console.log(`${label.padEnd(width)}  ${cells.map((c) => c.text.padEnd(30)).join('')}${met ? 'met' : 'NOT met'}`);
  }

  const dir = path.join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `admin-lists-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, goalMs: GOAL_MS, runs, seed, engines: byEngine }, null, 2)}\n`,
  );
  console.log(`\n${allMet ? 'Every case met the goal (p95).' : 'Some cases did NOT meet the goal (p95) or failed.'} Results: ${path.relative(root, file)}`);
  process.exitCode = allMet ? 0 : 1;
}

main().catch(async (error) => {
  console.error(error);
  await cleanUp();
  process.exitCode = 1;
});
