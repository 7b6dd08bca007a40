/**
 * The web server and its dependencies (issue 9 §1, §2, §3; ADR 028), against the real API as
 * a child process: pages never wait for the features stream; while the API restarts, pages
 * that need it say the store is unavailable and the others render; afterwards everything,
 * the features stream included, works again without restarting the web server. And with
 * TRUST_PROXY, a visitor cannot escape the per-address limits by writing X-Forwarded-For.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { filePayload, type FeaturePayload } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import { catalogs } from '@velvet/i18n/catalogs';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Child processes start and stop here: each test has a minute or two, not vitest's 5 s.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
import { createFeatureRelay, readEvents } from '../server/features.ts';
import { freePort, startApiProcess, until, type ApiProcess } from './support/api-process.ts';
import { printFigure } from './support/console-guard.ts';
import { startWebServer, stopPages, type TestWebServer } from './support/web-server.ts';

const logger = pino({ level: 'silent' });
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await stopPages();
});

async function web(overrides: Record<string, string>, options: Parameters<typeof startWebServer>[1] = {}): Promise<TestWebServer> {
  const server = await startWebServer(overrides, options);
  cleanups.push(() => server.close());
  return server;
}

async function api(overrides: Record<string, string> = {}): Promise<ApiProcess> {
  const process = await startApiProcess(overrides);
  cleanups.push(() => process.dispose());
  return process;
}

async function newCode(process: ApiProcess, inviter: string): Promise<string> {
  const created = JSON.parse(await process.cli('code', 'create', '--inviter', inviter, '--balance', '5', '--json')) as { code: string };
  return created.code;
}

/** A page: its status, its HTML, and its visible part (without the scripts, which carry every message of the catalog). */
const page = async (base: string, path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, { headers });
  const html = await response.text();
  return { status: response.status, html, text: html.replace(/<script\b[\s\S]*?<\/script>/g, '') };
};

/** The packaged features (the versioned file), which pages use until the API has answered. */
const FILE_PAYLOAD = filePayload(loadFeatureFile().file, loadFeatureFile().modifiedAt);

describe('the features stream never delays a page', () => {
  /** An "API" that accepts connections and never answers. */
  async function silentApi() {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    });
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, sockets };
  }

  it('renders at once from the packaged features while the API accepts and never answers, and while it is down', async () => {
    const silent = await silentApi();
    const dead = `http://127.0.0.1:${await freePort()}`;
    for (const apiUrl of [silent.url, dead]) {
      const relay = createFeatureRelay({ apiUrl, clientKey: 'sdk-velvet-rope', logger });
      const server = await web({ API_URL: apiUrl }, { features: relay });
      await page(server.url, '/about-us'); // compile the pages first
      const started = performance.now();
      for (let i = 0; i < 5; i++) {
        const rendered = await page(server.url, '/about-us');
        expect(rendered.status).toBe(200);
        // The page's features are the packaged ones (their date is the file's).
        expect(rendered.html).toContain(FILE_PAYLOAD.dateUpdated);
      }
      const elapsed = performance.now() - started;
      printFigure(`5 renders with the features stream ${apiUrl === dead ? 'refused' : 'hanging'}: ${Math.round(elapsed)} ms`);
      // A page that waited for the stream took 1 s at least each (the old relay's wait): 5 s for five.
      expect(elapsed).toBeLessThan(5_000);
      expect(relay.live).toBe(false);
      if (apiUrl === silent.url) expect(silent.sockets.size).toBeGreaterThan(0); // the relay's attempt is still pending
    }
  });
});

describe('an API restart', () => {
  it('the web server keeps serving meanwhile and works again afterwards, features stream included', async () => {
    const backend = await api();
    const code = await newCode(backend, 'Henrike');
    const relay = createFeatureRelay({ apiUrl: backend.url, clientKey: 'sdk-velvet-rope', logger, reconnect: { firstDelayMs: 100, baseMs: 100 } });
    const site = await web({ API_URL: backend.url }, { features: relay });
    // Pages write the brand with a no-break space (issue 22 row 7).
    const headline = catalogs.en['landing.headline.default']!.replace('{inviterName}', 'Henrike').replace('Velvet Rope', 'Velvet\u00a0Rope');
    const generic = catalogs.en['error.generic']!;

    expect((await page(site.url, `/?rc=${code}`)).text).toContain(headline);
    await until(() => relay.connected, 15_000, 'the features stream open');

    // A page's features stream, as a browser holds it.
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const stream = await fetch(`${site.url}/sub/sdk-velvet-rope`, { signal: controller.signal });
    const events = readEvents(stream.body!)[Symbol.asyncIterator]();
    const nextPayload = async () => {
      for (;;) {
        const { value, done } = await events.next();
        if (done) throw new Error('the page’s stream ended');
        if (value.event === 'features') return JSON.parse(value.data) as FeaturePayload;
      }
    };
    await nextPayload();

    await backend.stop();
    const down = await page(site.url, `/?rc=${code}`);
    expect(down.status).toBeLessThan(500);
    expect(down.text).toContain(generic);
    const about = await page(site.url, '/about-us');
    expect(about.status).toBe(200);
    expect(about.text).not.toContain(generic);
    await until(() => !relay.connected, 15_000, 'the relay noticing the outage');

    await backend.start();
    await until(async () => (await page(site.url, `/?rc=${code}`)).text.includes(headline), 30_000, 'the landing page working again');
    await until(() => relay.connected, 30_000, 'the features stream reopened');
    await backend.cli('feature', 'set', 'show-onboarding', '--value', 'false');
    await until(async () => (await nextPayload()).features['show-onboarding']?.defaultValue === false, 30_000, 'the change reaching the open page');
  });
});

describe('with TRUST_PROXY, X-Forwarded-For cannot escape the per-address limits', () => {
  it('counts code checks per visitor whatever the visitor writes on the left of the header', async () => {
    const backend = await api({ TRUST_PROXY: 'true', RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '2' });
    const code = await newCode(backend, 'Ottilie');
    const site = await web({ API_URL: backend.url, TRUST_PROXY: 'true' });
    const limited = catalogs.en['error.rateLimited']!.split('.')[0]!; // "Too many attempts"
    // The proxy in front appends the address it sees (203.0.113.7); the visitor invents a new one each time.
    const answers: string[] = [];
    for (let i = 1; i <= 20; i++) answers.push((await page(site.url, `/?rc=${code}`, { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` })).text);
    const refused = answers.filter((html) => html.includes(limited)).length;
    printFigure(`20 code checks with a changing left-most X-Forwarded-For: ${20 - refused} went through, ${refused} limited`);
    expect(refused).toBeGreaterThan(0);
    // Another visitor behind the same proxy is not held back by the first one's attempts.
    expect((await page(site.url, `/?rc=${code}`, { 'x-forwarded-for': '203.0.113.8' })).text).not.toContain(limited);
  });
});
