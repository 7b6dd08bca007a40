#!/usr/bin/env node
/**
 * `npm run dev` (ADR 026): the API restarted by tsx on every change to its sources or our
 * packages, and the web server with Vite's hot reload (apps/web/server.js in development), on the same
 * embedded defaults as `npm start` but with NODE_ENV=development (GraphiQL, readable errors).
 * Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const env = { NODE_ENV: 'development', ...process.env, DATA_DIR: path.resolve(process.env.DATA_DIR ?? path.join(root, 'data')) };
const children = [
  spawn(tsx, ['watch', '--clear-screen=false', 'src/main.ts'], { cwd: path.join(root, 'apps/api'), env: { TRUST_PROXY: 'true', ...env }, stdio: 'inherit' }),
  // Restarted when the server's own modules or our packages change (Node's watcher on those
  // folders only); pages and components reload in the browser through Vite.
  spawn(process.execPath, ['--watch-path=server', '--watch-path=../../packages', '--watch-preserve-output', 'server.js'], {
    cwd: path.join(root, 'apps/web'),
    env,
    stdio: 'inherit',
  }),
];
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
