/**
 * First-load weight of a page: which JavaScript, CSS and preloaded fonts its server-rendered
 * HTML makes the browser fetch, and how many bytes they are raw and gzipped (level 9).
 */
import { gzipSync, constants as zlib } from 'node:zlib';

/**
 * Attributes of one start tag (`<link a="b" c>` → { a: 'b', c: '' }), names lower-cased.
 * @param {string} tag
 * @returns {Record<string, string>}
 */
function parseAttributes(tag) {
  /** @type {Record<string, string>} */
  const attributes = {};
  const inner = tag.replace(/^<[a-zA-Z]+/, '').replace(/\/?>$/, '');
  for (const match of inner.matchAll(/([^\s"'=<>/`]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    attributes[match[1].toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return attributes;
}

/**
 * Module specifiers imported by a module's source text: `import "x"`, `import … from "x"`,
 * `export … from "x"` (static) and `import("x")` with a literal (dynamic).
 * @param {string} source
 * @returns {{ staticImports: string[], dynamicImports: string[] }}
 */
function moduleImports(source) {
  const staticImports = [];
  const dynamicImports = [];
  for (const match of source.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']/g)) {
    staticImports.push(match[1]);
  }
  for (const match of source.matchAll(/\bimport\s*\(\s*["'`]([^"'`\n]+)["'`]\s*\)/g)) dynamicImports.push(match[1]);
  return { staticImports, dynamicImports };
}

/**
 * @typedef {'js' | 'css' | 'font'} AssetKind
 * @typedef {object} AssetRef
 * @property {string} url    absolute URL
 * @property {AssetKind} kind
 * @property {string} via    how the HTML (or a module) references it
 */

/**
 * Every JS, CSS and preloaded-font URL the HTML references for the first load. Inline module
 * scripts count with their `import("…")` and `import … from "…"`; `<link rel="modulepreload">`
 * and `<script src>` count whether module or not. Duplicates are kept once (first reference wins).
 * @param {string} html
 * @param {string} pageUrl
 * @returns {{ assets: AssetRef[], skipped: { url: string, reason: string }[] }}
 */
function collectAssets(html, pageUrl) {
  /** @type {Map<string, AssetRef>} */
  const found = new Map();
  /** @type {{ url: string, reason: string }[]} */
  const skipped = [];
  const origin = new URL(pageUrl).origin;
  const baseHref = [...html.matchAll(/<base\b[^>]*>/gi)].map((m) => parseAttributes(m[0]).href).find(Boolean);
  const base = baseHref ? new URL(baseHref, pageUrl).href : pageUrl;
  const add = (/** @type {string} */ ref, /** @type {AssetKind} */ kind, /** @type {string} */ via) => {
    if (!ref || ref.startsWith('data:')) return;
    if (via.startsWith('inline module') && !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(ref)) {
      skipped.push({ url: ref, reason: 'bare specifier (import map; not fetched)' });
      return;
    }
    const url = new URL(ref, base);
    url.hash = '';
    if (url.origin !== origin) {
      skipped.push({ url: url.href, reason: 'other origin (not fetched)' });
      return;
    }
    if (!found.has(url.href)) found.set(url.href, { url: url.href, kind, via });
  };

  // Comments can hold markup that is never loaded.
  const markup = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of markup.matchAll(/<link\b[^>]*>/gi)) {
    const attributes = parseAttributes(match[0]);
    const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('modulepreload')) add(attributes.href, 'js', 'link modulepreload');
    else if (rels.includes('stylesheet')) add(attributes.href, 'css', 'link stylesheet');
    else if (rels.includes('preload') && attributes.as === 'font') add(attributes.href, 'font', 'link preload font');
    else if (rels.includes('preload') && attributes.as === 'script') add(attributes.href, 'js', 'link preload script');
    else if (rels.includes('preload') && attributes.as === 'style') add(attributes.href, 'css', 'link preload style');
  }
  for (const match of markup.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = parseAttributes(`<script${match[1]}>`);
    if (attributes.src) {
      add(attributes.src, 'js', attributes.type === 'module' ? 'script module src' : 'script src');
    } else if ((attributes.type ?? '').toLowerCase() === 'module') {
      const { staticImports, dynamicImports } = moduleImports(match[2]);
      for (const specifier of staticImports) add(specifier, 'js', 'inline module import');
      for (const specifier of dynamicImports) add(specifier, 'js', 'inline module import()');
    }
  }
  return { assets: [...found.values()], skipped };
}

/**
 * @typedef {object} MeasuredAsset
 * @property {string} url
 * @property {string} path   URL path, for display
 * @property {AssetKind} kind
 * @property {string} via
 * @property {number} raw    bytes as served (uncompressed)
 * @property {number} gzip   bytes after gzip level 9
 */

/**
 * Fetches one URL (uncompressed: the bytes on disk, gzipped by us the same way for every file).
 * @param {string} url
 * @returns {Promise<Buffer>}
 */
async function fetchBytes(url) {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' }, signal: AbortSignal.timeout(10_000) });
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return body;
}

/** @param {Buffer} bytes */
const gzipSize = (bytes) => gzipSync(bytes, { level: zlib.Z_BEST_COMPRESSION }).length;

/**
 * Fetches the page and every asset of its first load once, and measures them.
 * JavaScript modules are also read for static imports the HTML does not name (the browser
 * would fetch those too before running the page): they are added with via "static import".
 * @param {string} pageUrl
 * @returns {Promise<{ html: string, htmlRaw: number, htmlGzip: number, inlineScriptBytes: number, assets: MeasuredAsset[],
 *   skipped: { url: string, reason: string }[], lazyImports: string[] }>}
 */
export async function measureFirstLoad(pageUrl) {
  const htmlBytes = await fetchBytes(pageUrl);
  const html = htmlBytes.toString('utf8');
  const { assets: refs, skipped } = collectAssets(html, pageUrl);
  const origin = new URL(pageUrl).origin;

  /** @type {MeasuredAsset[]} */
  const assets = [];
  const seen = new Set(refs.map((ref) => ref.url));
  /** @type {Set<string>} */
  const lazy = new Set();
  const queue = [...refs];
  // Bounded: a page cannot make us fetch more than this many files.
  for (let i = 0; i < queue.length && i < 500; i++) {
    const ref = queue[i];
    const bytes = await fetchBytes(ref.url);
    assets.push({ ...ref, path: new URL(ref.url).pathname, raw: bytes.length, gzip: gzipSize(bytes) });
    if (ref.kind !== 'js') continue;
    const { staticImports, dynamicImports } = moduleImports(bytes.toString('utf8'));
    for (const specifier of staticImports) {
      if (!/^\.{0,2}\//.test(specifier)) continue; // bare specifiers: text in a bundle, not an import
      const url = new URL(specifier, ref.url);
      if (url.origin !== origin || seen.has(url.href)) continue;
      seen.add(url.href);
      queue.push({ url: url.href, kind: 'js', via: 'static import' });
    }
    for (const specifier of dynamicImports) {
      if (!/^\.{0,2}\//.test(specifier)) continue;
      const url = new URL(specifier, ref.url);
      if (url.origin === origin && !seen.has(url.href)) lazy.add(url.pathname);
    }
  }
  for (const url of seen) lazy.delete(new URL(url).pathname);
  let inlineScriptBytes = 0;
  for (const match of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script\s*>/gi)) inlineScriptBytes += Buffer.byteLength(match[1]);
  return {
    html,
    htmlRaw: htmlBytes.length,
    htmlGzip: gzipSize(htmlBytes),
    inlineScriptBytes,
    assets,
    skipped,
    lazyImports: [...lazy].sort(),
  };
}
