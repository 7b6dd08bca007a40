#!/usr/bin/env node
/**
 * The quick start's launcher (`npm start` builds first; ADR 026, 062): the same build as a
 * deployment, on the embedded defaults (SQLite under data/ unless DATABASE_URL says otherwise,
 * the dev mailbox unless SMTP_URL), with NODE_ENV=production. It runs what a deployment runs as
 * separate steps and processes:
 *
 *   1. `node apps/api/dist/main.js migrate`   once: migrations and seeds, then it exits
 *   2. ROLE=api    node apps/api/dist/main.js   GraphQL and subscriptions
 *      ROLE=worker node apps/api/dist/main.js   outbox, retention, waiting-list admission
 *      node apps/web/server.js                  the web server
 *
 * and prints one summary of where each listens and what it uses. A deployment runs each role
 * as its own process under the platform's supervisor instead (docs/architecture.md); this
 * launcher's restarts are a convenience of the quick start only: a child that crashes is
 * started again (after 1 s, doubling up to 30 s while it keeps crashing) while the others go on
 * serving. A child that refuses its configuration (exit code 2) is not restarted: that needs a
 * person. Ctrl-C or SIGTERM stops all of them.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const API = 'apps/api/dist/main.js';
const programs = [
  // The web server forwards the visitor's address to the API, which listens on loopback only.
  { name: 'api', file: API, env: { ROLE: 'api', TRUST_PROXY: 'true' } },
  { name: 'worker', file: API, env: { ROLE: 'worker' } },
  // The web server's bundle (ADR 053): apps/web/server.js starts apps/web/build/server/index.js.
  { name: 'web', file: 'apps/web/server.js', built: 'apps/web/build/server/index.js', env: {} },
];
const missing = [...new Set(programs.map((p) => p.built ?? p.file))].filter((file) => !existsSync(path.join(root, file)));
if (missing.length > 0) {
  console.error(`Not built yet (${missing.join(', ')}): run \`npm run build\` first, or \`npm start\`, which builds.`);
  process.exit(1);
}

const env = {
  NODE_ENV: 'production',
  ...process.env,
  DATA_DIR: path.resolve(process.env.DATA_DIR ?? path.join(root, 'data')),
  // Step 1 migrated; the roles only check that it did, as in a deployment.
  MIGRATE_ON_START: 'false',
};
/** Exit code of a child that refused its configuration (parseEnv's EnvError): restarting cannot help. */
const CONFIGURATION_REFUSED = 2;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A child that ran this long before it stopped counts as healthy: its next restart is quick again. */
const HEALTHY_AFTER_MS = 60_000;

let stopping = false;
const running = new Map();
const restarts = new Map();
/** What each role said when it was ready (its `process.send`), for the one summary. */
const ready = new Map();
let summarised = false;

function spawnNode(file, args, extraEnv) {
  return spawn(process.execPath, ['--enable-source-maps', file, ...args], {
    cwd: root,
    env: { ...extraEnv, ...env },
    // The IPC channel closes when this process ends, however it ends: the children stop with it.
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
}

function launch(program, delay = FIRST_DELAY_MS) {
  const startedAt = Date.now();
  const child = spawnNode(program.file, [], program.env);
  running.set(program.name, child);
  child.on('message', (message) => {
    if (message?.velvet !== 'ready') return;
    ready.set(program.name, message);
    summarise();
  });
  child.on('exit', (code, signal) => {
    running.delete(program.name);
    if (stopping) {
      if (running.size === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (code === CONFIGURATION_REFUSED) {
      console.error(`[start] ${program.name} refused its configuration; stopping.`);
      stop(1);
      return;
    }
    const next = Date.now() - startedAt > HEALTHY_AFTER_MS ? FIRST_DELAY_MS : delay;
    console.error(`[start] ${program.name} stopped (${signal ?? `exit code ${code}`}); starting it again in ${next / 1000} s.`);
    const timer = setTimeout(() => {
      if (!stopping) launch(program, Math.min(next * 2, MAX_DELAY_MS));
    }, next);
    timer.unref();
    restarts.set(program.name, timer);
  });
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const timer of restarts.values()) clearTimeout(timer);
  if (running.size === 0) process.exit(code);
  for (const child of running.values()) child.kill('SIGTERM');
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

/** Once every role is ready: where each listens and what it uses (no credentials: the roles describe it). */
function summarise() {
  if (summarised || programs.some((p) => !ready.has(p.name))) return;
  summarised = true;
  const url = (name) => ready.get(name).url.replace('//127.0.0.1:', '//localhost:');
  const web = url('web');
  const { database, mail, redis } = ready.get('api').uses;
  const mailbox = mail.startsWith('dev mailbox') ? `  (read at ${url('api').replace(/\/graphql$/, '/dev/mailbox')})` : '';
  console.log(`
  Velvet Rope is running: one process per role (a deployment runs each under its own supervisor).
    web       ${web}   invitation: ${web}/?rc=WELCOME2026
    api       ${url('api')}
    worker    ${url('worker')}
    database  ${database}
    email     ${mail}${mailbox}
    redis     ${redis}
  Ctrl-C stops them all.
`);
}

// Step 1: migrations as their own step, before any role starts (ADR 062).
const migrate = spawnNode(API, ['migrate'], {});
migrate.on('exit', (code, signal) => {
  if (stopping) return process.exit(process.exitCode ?? 0);
  if (code === 0) {
    for (const program of programs) launch(program);
    return;
  }
  console.error(code === CONFIGURATION_REFUSED ? '[start] migrate refused its configuration; stopping.' : `[start] migrate failed (${signal ?? `exit code ${code}`}); stopping.`);
  process.exit(1);
});
