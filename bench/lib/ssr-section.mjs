/**
 * Server-rendered pages against the floor: a bare `node:http` server answering every request
 * with the same bytes as the landing page (bench/anchors/html-server.mjs). Its throughput is
 * the most any server on this machine can reach for those bytes; `/` and `/?rc=WELCOME2026`
 * are reported as shares of it (issue 11: at least 0.5 for pages without personal data, at
 * least 0.16 — React Router's own share of plain HTML — for pages with an invitation code).
 * `/` is also measured as browsers ask for it (Accept-Encoding: gzip, deflate, br, zstd), against
 * the same server sending the page gzip-compressed once. And the invitation page with a different
 * code each request (copies of the demo code), so nothing could be answered from a copy, against
 * the bare React Router page rendered by the framework alone (bench/anchors/react-router-page.mjs;
 * issue 19 §5: at least 0.5 of it).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensureAnchorBuild } from './anchor-page.mjs';
import { startAnchor } from './anchors.mjs';
import { num } from './format.mjs';
import { anyFailed, cpuText, loadTable, ratioGoal, throughput } from './sections.mjs';

const REGISTRATION_CODE = 'WELCOME2026';
/** The demo code's inviter (apps/api/src/seed.ts): the page with ?rc= must name her. */
const INVITER = 'Sophie';
/** Invitation codes like the demo one, each its own page: the origin renders every visit afresh. */
const DISTINCT_CODES = 2000;

/**
 * Makes DISTINCT_CODES copies of the demo code's row (same inviter, balance and customization)
 * under new codes, in the product's SQLite database; returns the codes.
 * @param {string} dataDir
 */
function copiesOfTheDemoCode(dataDir) {
  const db = new Database(path.join(dataDir, 'velvet.sqlite'), { fileMustExist: true });
  try {
    const columns = /** @type {{ name: string }[]} */ (db.prepare('pragma table_info(registration_codes)').all()).map((c) => c.name);
    const copied = columns.map((c) => (c === 'id' || c === 'code' ? `@${c}` : `"${c}"`)).join(', ');
    const insert = db.prepare(`insert into registration_codes (${columns.map((c) => `"${c}"`).join(', ')}) select ${copied} from registration_codes where code = '${REGISTRATION_CODE}'`);
    const codes = Array.from({ length: DISTINCT_CODES }, (_, i) => `BENCH${String(i).padStart(5, '0')}`);
    db.transaction(() => {
      for (const code of codes) insert.run({ id: randomUUID(), code });
    })();
    return codes;
  } finally {
    db.close();
  }
}

/** What Chromium sends. */
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** @type {import('./sections.mjs').Section} */
export const ssrSection = {
  name: 'ssr',
  title: 'Server-rendered pages against the bare node:http floor (same HTML bytes)',
  needs: 'product',
  async run({ root, workDir, settings, ports, product, measure, onCleanup }) {
    if (!product) throw new Error('the ssr section needs the product');
    const landingUrl = `${product.webUrl}/`;
    const rcUrl = `${product.webUrl}/?rc=${REGISTRATION_CODE}`;
    const page = await fetch(landingUrl, { headers: { 'accept-encoding': 'identity' } });
    const html = await page.text();
    if (!page.ok) throw new Error(`GET / answered ${page.status}`);
    const rcPage = await (await fetch(rcUrl)).text();
    const invitationShown = rcPage.includes(INVITER);
    const file = path.join(workDir, 'landing.html');
    writeFileSync(file, html);

    const anchor = await startAnchor(root, 'html-server.mjs', ports.htmlAnchor, [file], onCleanup);
    let floor;
    let floorGzip;
    try {
      const check = await (await fetch(anchor.url)).text();
      if (check !== html) throw new Error('the node:http anchor does not serve the landing page as saved');
      floor = await measure('floor: node:http, landing HTML', { url: anchor.url, connections: settings.webConnections, duration: settings.duration, cpu: anchor.cpu });
      floorGzip = await measure('floor: node:http, landing HTML gzip-compressed once', {
        url: anchor.url,
        connections: settings.webConnections,
        duration: settings.duration,
        headers: BROWSER_ENCODINGS,
        cpu: anchor.cpu,
      });
    } finally {
      await anchor.stop();
    }
    const landing = await measure('SSR /', { url: landingUrl, connections: settings.webConnections, duration: settings.duration, cpu: product.cpu });
    const landingGzip = await measure('SSR / as a browser asks (gzip, deflate, br, zstd)', {
      url: landingUrl,
      connections: settings.webConnections,
      duration: settings.duration,
      headers: BROWSER_ENCODINGS,
      cpu: product.cpu,
    });
    const withCode = await measure(`SSR /?rc=${REGISTRATION_CODE}`, { url: rcUrl, connections: settings.webConnections, duration: settings.duration, cpu: product.cpu });

    // Issue 19 §5: the origin's invitation page, a different code each request (nothing any
    // cache could answer), against the bare React Router page rendered by the framework alone.
    ensureAnchorBuild(root);
    const routerAnchor = await startAnchor(root, 'react-router-page.mjs', ports.routerAnchor, [], onCleanup);
    let bareRouter;
    try {
      bareRouter = await measure('anchor: bare React Router page', { url: `${routerAnchor.url}/`, connections: settings.webConnections, duration: settings.duration, cpu: routerAnchor.cpu });
    } finally {
      await routerAnchor.stop();
    }
    const codes = copiesOfTheDemoCode(product.dataDir);
    let next = 0;
    const distinctCodes = await measure(`SSR /?rc= a different code each request (${DISTINCT_CODES})`, {
      url: rcUrl,
      connections: settings.webConnections,
      duration: settings.duration,
      cpu: product.cpu,
      makePath: () => `/?rc=${codes[next++ % codes.length]}`,
    });
    const distinctRatio = distinctCodes.requestsPerSecond / bareRouter.requestsPerSecond;

    const anchorText = `${throughput(floor)} (node:http)`;
    const landingRatio = landing.requestsPerSecond / floor.requestsPerSecond;
    const rcRatio = withCode.requestsPerSecond / floor.requestsPerSecond;
    const gzipRatio = landingGzip.requestsPerSecond / floorGzip.requestsPerSecond;
    return {
      figures: [
        { id: 'ssr.landing', label: 'SSR GET / (anonymous)', measured: throughput(landing), anchor: anchorText, ratio: landingRatio, goal: ratioGoal(landingRatio, 0.5) },
        {
          id: 'ssr.landingGzip',
          label: 'SSR GET / as a browser asks (compressed)',
          measured: throughput(landingGzip),
          anchor: `${throughput(floorGzip)} (node:http, gzip -9 once)`,
          ratio: gzipRatio,
          goal: ratioGoal(gzipRatio, 0.5),
        },
        { id: 'ssr.landingWithCode', label: `SSR GET /?rc=${REGISTRATION_CODE}`, measured: throughput(withCode), anchor: anchorText, ratio: rcRatio, goal: ratioGoal(rcRatio, 0.16) },
        {
          id: 'ssr.distinctCodes',
          label: 'SSR GET /?rc=, a different code each request, at the origin',
          measured: throughput(distinctCodes),
          anchor: `${throughput(bareRouter)} (bare React Router page)`,
          ratio: distinctRatio,
          goal: ratioGoal(distinctRatio, 0.5),
        },
      ],
      lines: [
        ...loadTable([
          ['floor: node:http, same bytes', floor],
          ['SSR  GET /', landing],
          ['floor: node:http, gzip -9 once', floorGzip],
          ['SSR  GET /, Accept-Encoding of a browser', landingGzip],
          [`SSR  GET /?rc=${REGISTRATION_CODE}`, withCode],
          ['anchor: bare React Router page', bareRouter],
          ['SSR  GET /?rc=, a different code each request', distinctCodes],
        ]),
        '',
        `  HTML of /: ${num(Buffer.byteLength(html))} bytes. Share of the floor: / ${num(landingRatio, 3)}, /?rc= ${num(rcRatio, 3)}; mean latency ${num(landing.latencyMean, 2)} ms vs ${num(floor.latencyMean, 2)} ms.`,
        `  CPU per request (the product: web server + API): / ${cpuText(landing)}, /?rc= ${cpuText(withCode)}; the floor ${cpuText(floor)}.`,
        `  Compressed, as browsers ask: / ${cpuText(landingGzip)}, ${num(landingGzip.bytesPerSecond / Math.max(landingGzip.requestsPerSecond, 1), 0)} bytes a response; the floor ${cpuText(floorGzip)}, ${num(floorGzip.bytesPerSecond / Math.max(floorGzip.requestsPerSecond, 1), 0)} bytes; share ${num(gzipRatio, 3)}.`,
        `  The page with ?rc=${REGISTRATION_CODE} names the inviter (${INVITER}): ${invitationShown ? 'yes' : 'NO — check the loader'}`,
      ],
      data: { floor, landing, floorGzip, landingGzip, withCode, bareRouter, distinctCodes, htmlBytes: Buffer.byteLength(html), invitationShown },
      suspect: anyFailed(floor, landing, floorGzip, landingGzip, withCode, bareRouter, distinctCodes) || !invitationShown,
    };
  },
};
