#!/usr/bin/env node
/**
 * Runs the product on its embedded defaults: the GraphQL API (SQLite under data/,
 * migrated and seeded at start-up) and the web server, as two processes. Stops both
 * when either stops or on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(`Node ${process.versions.node} is too old: Velvet Rope needs Node 22.22 or newer (24 LTS recommended).`);
  process.exit(1);
}

const tsx = path.join(root, 'node_modules/.bin/tsx');
const env = { ...process.env, DATA_DIR: path.resolve(process.env.DATA_DIR ?? path.join(root, 'data')) };
// The web server forwards the visitor's address to the API, which listens on loopback only.
const children = [
  spawn(tsx, ['src/main.ts'], { cwd: path.join(root, 'apps/api'), env: { TRUST_PROXY: 'true', ...env }, stdio: 'inherit' }),
  spawn(tsx, ['server/main.ts'], { cwd: path.join(root, 'apps/web'), env, stdio: 'inherit' }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const port = env.PORT ?? '3000';
const apiPort = env.API_PORT ?? '9090';
const web = `http://localhost:${port}`;
async function waitFor(url) {
  for (let i = 0; i < 120 && !stopping; i++) {
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
