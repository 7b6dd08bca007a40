#!/usr/bin/env node
/**
 * Runs the compiled product (`npm run build` first; ADR 026): the GraphQL API (SQLite under
 * data/ unless DATABASE_URL says otherwise, migrated and seeded at start-up) and the web
 * server, as two child processes with NODE_ENV=production.
 *
 * A child that crashes is started again (after 1 s, doubling up to 30 s while it keeps
 * crashing) while the other one goes on serving: the web server answers with the spec's
 * generic message while the API is away. A child that refuses its configuration (exit code
 * 2) is not restarted: that needs a person. Ctrl-C or SIGTERM stops both.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(`Node ${process.versions.node} is too old: Velvet Rope needs Node 22.22 or newer (24 LTS recommended).`);
  process.exit(1);
}

const programs = [
  // The web server forwards the visitor's address to the API, which listens on loopback only.
  { name: 'api', file: 'apps/api/dist/main.js', env: { TRUST_PROXY: 'true' } },
  // The web server's bundle (ADR 053): apps/web/server.js starts apps/web/build/server/index.js.
  { name: 'web', file: 'apps/web/server.js', built: 'apps/web/build/server/index.js', env: {} },
];
const missing = programs.filter((p) => !existsSync(path.join(root, p.built ?? p.file)));
if (missing.length > 0) {
  console.error(`Not built yet (${missing.map((p) => p.built ?? p.file).join(', ')}): run \`npm run build\` first, or \`npm start\`, which builds.`);
  process.exit(1);
}

const env = {
  NODE_ENV: 'production',
  ...process.env,
  DATA_DIR: path.resolve(process.env.DATA_DIR ?? path.join(root, 'data')),
};
/** Exit code of a child that refused its configuration (parseEnv's EnvError): restarting cannot help. */
const CONFIGURATION_REFUSED = 2;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A child that ran this long before it stopped counts as healthy: its next restart is quick again. */
const HEALTHY_AFTER_MS = 60_000;

let stopping = false;
const running = new Map();

function launch(program, delay = FIRST_DELAY_MS) {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ['--enable-source-maps', program.file], {
    cwd: root,
    env: { ...program.env, ...env },
    // The IPC channel closes when this process ends, however it ends: the children stop with it.
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  running.set(program.name, child);
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
const restarts = new Map();

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

for (const program of programs) launch(program);

const port = env.PORT ?? '3000';
const apiPort = env.API_PORT ?? '9090';
const web = `http://localhost:${port}`;
async function waitFor(url) {
  for (let i = 0; i < 240 && !stopping; i++) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}
if ((await waitFor(`http://127.0.0.1:${apiPort}/health`)) && (await waitFor(`http://127.0.0.1:${port}/healthz`))) {
  console.log(`
  Velvet Rope is running.
    Web app:      ${web}
    Invitation:   ${web}/?rc=WELCOME2026
    GraphQL API:  http://localhost:${apiPort}/graphql
  Ctrl-C stops both.
`);
}
