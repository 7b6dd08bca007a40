#!/usr/bin/env node
/**
 * The first thing `npm start`, `build`, `dev`, `migrate`, `test` and `validate` run (issue 23 §5,
 * ADR 062): on a Node older than the `engines` field of package.json, stop at once with one line
 * that names the version needed and how to get it — before Vite or esbuild fail on it with
 * something like ERR_UNKNOWN_FILE_EXTENSION.
 *
 * Written for the oldest Node anyone may run it with: no optional chaining, no `??`, no
 * top-level await, nothing outside node:fs and node:path. VELVET_NODE_VERSION_FOR_TEST stands
 * in for the running version (tests/runtime/check-node.test.ts, where no old Node is installed).
 */
import fs from 'fs';
import path from 'path';
import url from 'url';

var root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), '..');
var manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
var wanted = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec((manifest.engines && manifest.engines.node) || '');
if (!wanted) {
  console.error('package.json: engines.node must read ">=MAJOR.MINOR.PATCH"');
  process.exit(1);
}
var need = [Number(wanted[1]), Number(wanted[2]), Number(wanted[3] || 0)];
var running = (process.env.VELVET_NODE_VERSION_FOR_TEST || process.versions.node).replace(/^v/, '');
var have = running.split('.').map(Number);

function older(a, b) {
  for (var i = 0; i < 3; i++) {
    if ((a[i] || 0) !== b[i]) return (a[i] || 0) < b[i];
  }
  return false;
}

if (older(have, need)) {
  console.error(
    'Velvet Rope needs Node ' + need.join('.') + ' or newer (this is Node ' + running + '): install Node 24 LTS from https://nodejs.org/en/download (or `nvm install 24`), then run the command again.',
  );
  process.exit(1);
}
