#!/usr/bin/env node
/**
 * `npm run cli -- …`: the admin CLI, compiled (apps/api/dist/cli.js; ADR 026). When the
 * compiled CLI is missing or older than its sources (a checkout that was never built, or
 * edited since) and the build tools are installed, the servers are compiled first (a few
 * seconds), so the CLI never runs stale code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'apps/api/dist/cli.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(ts|tsx|json)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const sources = [path.join(root, 'apps/api/src'), ...readdirSync(path.join(root, 'packages')).map((p) => path.join(root, 'packages', p, 'src'))].filter(existsSync);
const stale = !existsSync(compiled) || Math.max(...sources.map(newestSource)) > statSync(compiled).mtimeMs;
if (stale && existsSync(path.join(root, 'node_modules/esbuild'))) {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-servers.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const run = spawnSync(process.execPath, ['--enable-source-maps', compiled, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
