/**
 * The JS-weight anchor (issue 11): a bare React Router framework-mode page (bench/anchor/, the
 * shape of the framework's starter: a document layout, one index route, the default entries),
 * built with the framework's own CLI from the packages in node_modules (no network), cached in
 * node_modules/.cache/velvet-bench/anchor/<key> and rebuilt only when its sources or the
 * versions of react, react-dom, react-router or vite change. The bench serves it on an
 * ephemeral loopback port and measures its first load exactly as it measures ours
 * (bench/lib/assets.mjs), so the two JS figures can stand side by side as a ratio.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { measureFirstLoad } from './assets.mjs';
import { pathWithThisNode } from './product.mjs';

const PACKAGES = ['react', 'react-dom', 'react-router', '@react-router/dev', '@react-router/node', 'vite'];

/**
 * Files under `dir` (relative paths), sorted.
 * @param {string} dir
 * @returns {string[]}
 */
function listFiles(dir) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The cache key: the anchor's sources and the versions of the packages that build it.
 * @param {string} root repository root
 * @param {string} source bench/anchor
 */
function cacheKey(root, source) {
  const hash = createHash('sha256');
  for (const file of listFiles(source)) hash.update(file).update(readFileSync(path.join(source, file)));
  for (const name of PACKAGES) {
    const manifest = path.join(root, 'node_modules', name, 'package.json');
    hash.update(`${name}@${existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : 'missing'}`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the anchor page unless a build for the same key is cached.
 * @param {string} root repository root
 * @returns {{ buildDir: string, built: boolean }}
 */
export function ensureAnchorBuild(root) {
  const source = path.join(root, 'bench/anchor');
  const cacheRoot = path.join(root, 'node_modules/.cache/velvet-bench/anchor');
  const buildDir = path.join(cacheRoot, cacheKey(root, source));
  if (existsSync(path.join(buildDir, 'server/index.js'))) return { buildDir, built: false };
  rmSync(cacheRoot, { recursive: true, force: true });
  const result = spawnSync(path.join(root, 'node_modules/.bin/react-router'), ['build'], {
    cwd: source,
    env: { ...process.env, PATH: pathWithThisNode(), NODE_ENV: 'production', ANCHOR_BUILD_DIR: buildDir },
    encoding: 'utf8',
    timeout: 5 * 60 * 1000,
  });
  if (result.status !== 0) {
    throw new Error(`Building the bare React Router page failed (exit ${result.status ?? result.signal}):\n${(result.stderr || result.stdout).slice(-3000)}`);
  }
  return { buildDir, built: true };
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.svg': 'image/svg+xml' };

/**
 * Serves a React Router build (static files from client/, everything else through the
 * framework's request listener) on 127.0.0.1 and `port` (an ephemeral one by default).
 * @param {string} root repository root
 * @param {string} buildDir
 * @param {number} [port]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serveBuild(root, buildDir, port = 0) {
  const build = await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href);
  // The framework's Node adapter, as the anchor's package.json names it (resolved from bench/anchor).
  const adapter = createRequire(path.join(root, 'bench/anchor/package.json')).resolve('@react-router/node');
  const { createRequestListener } = await import(pathToFileURL(adapter).href);
  const listener = createRequestListener({ build, mode: 'production' });
  const clientDir = path.join(buildDir, 'client');
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://anchor').pathname);
    const file = path.join(clientDir, pathname);
    if (file.startsWith(`${clientDir}${path.sep}`) && existsSync(file) && statSync(file).isFile()) {
      response.writeHead(200, { 'content-type': TYPES[/** @type {keyof typeof TYPES} */ (path.extname(file))] ?? 'application/octet-stream' });
      response.end(readFileSync(file));
      return;
    }
    void listener(request, response);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * Builds (or reuses) the bare page and measures its first load like ours.
 * @param {string} root repository root
 * @returns {Promise<{ built: boolean, js: { files: number, raw: number, gzip: number }, htmlGzip: number, assets: { path: string, gzip: number }[] }>}
 */
export async function measureAnchorPage(root) {
  const { buildDir, built } = ensureAnchorBuild(root);
  const served = await serveBuild(root, buildDir);
  try {
    const weight = await measureFirstLoad(`${served.url}/`);
    const js = weight.assets.filter((a) => a.kind === 'js');
    return {
      built,
      js: { files: js.length, raw: js.reduce((t, a) => t + a.raw, 0), gzip: js.reduce((t, a) => t + a.gzip, 0) },
      htmlGzip: weight.htmlGzip,
      assets: js.map((a) => ({ path: a.path, gzip: a.gzip })),
    };
  } finally {
    await served.close();
  }
}
