/**
 * What a shared HTTP cache may keep, per route family (ADR 053): the public pages are `public`
 * for a minute when nothing about the visitor went into them; everything personal is
 * `private, no-store`; the files say their own lifetimes. The real web server, pages compiled
 * by Vite; the API is unreachable (a failed check is the visitor's own), but for an invitation's
 * page, which is checked against the real API as a child process.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_INVITATION_PAGE_CACHE_CONTROL, SHARED_PAGE_CACHE_CONTROL } from '../app/lib/page/page-caching.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { expectConsole } from './support/console-guard.ts';
import { startWebServer, stopPages, type TestWebServer } from './support/web-server.ts';

let web: TestWebServer;
beforeAll(async () => {
  web = await startWebServer({ TEST_CLOCK: 'true', TRUSTED_COUNTRY_HEADER: 'cf-ipcountry' });
}, 120_000);
afterAll(async () => {
  await web?.close();
  await stopPages();
});

/** As a shared cache in front asks: with the experiment bucket it drew. */
const BUCKET = { 'x-experiment-bucket': '3f' };

async function head(path: string, init: RequestInit = {}) {
  const response = await fetch(`${web.url}${path}`, { redirect: 'manual', ...init });
  await response.arrayBuffer();
  return { status: response.status, cacheControl: response.headers.get('cache-control'), vary: response.headers.get('vary') ?? '' };
}

describe('public pages', () => {
  it('may be kept by a shared cache when the cache keys the experiment bucket, and vary on what else they read', async () => {
    for (const path of ['/de', '/de/about-us', '/pl/stores', '/fr/membership-interest', '/vip']) {
      const answer = await head(path, { headers: BUCKET });
      expect(answer, path).toMatchObject({ status: 200, cacheControl: SHARED_PAGE_CACHE_CONTROL });
      expect(answer.vary.split(', '), path).toEqual(expect.arrayContaining(['Cookie', 'x-experiment-bucket', 'cf-ipcountry']));
    }
    // An unprefixed page speaks the visitor's language.
    expect((await head('/', { headers: BUCKET })).vary.split(', ')).toEqual(expect.arrayContaining(['Accept-Language', 'Cookie']));
    // "Page not found" is a 404 the cache may keep too.
    for (const path of ['/it/no-such-page', '/sv/error/404']) expect(await head(path, { headers: BUCKET }), path).toMatchObject({ status: 404, cacheControl: SHARED_PAGE_CACHE_CONTROL });
    // The language cookies do not make a prefixed page someone's own.
    expect((await head('/de', { headers: { ...BUCKET, cookie: 'lang=fr; locale=fr' } })).cacheControl).toBe(SHARED_PAGE_CACHE_CONTROL);
  });

  it('may be kept once per variation: the origin names a bucket’s variation at an address, and the page asked for under it varies on that', async () => {
    const ask = (headers: Record<string, string>) => fetch(`${web.url}/__experiments/variation`, { headers });
    const named = await ask({ ...BUCKET, 'x-original-uri': '/de?rc=WELCOME2026' });
    expect(named.status).toBe(200);
    expect(named.headers.get('cache-control')).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect(named.headers.get('vary')).toBe('Accept-Language, cf-ipcountry');
    const variation = named.headers.get('x-experiment-variation')!;
    expect(variation).toMatch(/^[\w-]{16}$/);
    const page = await head('/de', { headers: { ...BUCKET, 'x-experiment-variation': variation } });
    expect(page).toMatchObject({ status: 200, cacheControl: SHARED_PAGE_CACHE_CONTROL });
    expect(page.vary.split(', ')).toEqual(expect.arrayContaining(['Cookie', 'x-experiment-variation', 'cf-ipcountry']));
    expect(page.vary).not.toContain('x-experiment-bucket');
    // Nothing to name without a bucket, or for an address that is not this site's: said so, kept by no one.
    const elsewhere = ['//elsewhere.example/', '/\\elsewhere.example/de', '/\\[', 'de'].map((uri) => ({ ...BUCKET, 'x-original-uri': uri }));
    for (const headers of [{ 'x-original-uri': '/de' }, { ...BUCKET }, ...elsewhere] as Record<string, string>[]) {
      const unnamed = await ask(headers);
      expect(unnamed.status).toBe(204);
      expect(unnamed.headers.get('cache-control')).toBe('private, no-store');
      expect(unnamed.headers.has('x-experiment-variation')).toBe(false);
    }
  });

  it('are private when the origin drew the visitor’s variation itself (no cache in front keys it)', async () => {
    expect((await head('/de')).cacheControl).toBe('private, no-store');
  });

  it('are private when anything about the visitor went into them', async () => {
    const personal: [string, RequestInit][] = [
      ['/de', { headers: { ...BUCKET, cookie: 'acq_token=eyJhbGciOi.x.y' } }],
      ['/de', { headers: { ...BUCKET, cookie: 'cc_cookie=%7B%7D' } }],
      ['/de', { headers: { ...BUCKET, authorization: 'Bearer x' } }],
      ['/de', { headers: { ...BUCKET, 'x-test-now': '2026-06-15T10:00:00Z' } }],
      // An invitation whose check failed (the API is away): the failure is this visitor's.
      ['/de?rc=WELCOME2026', { headers: BUCKET }],
      // An arrival that brings something to keep sets the flow cookie.
      ['/de?sourcePath=%2Fshop%2Fshoes', { headers: BUCKET }],
    ];
    for (const [path, init] of personal) expect((await head(path, init)).cacheControl, `${path} ${JSON.stringify(init.headers)}`).toBe('private, no-store');
  });

  it('answer a form privately', async () => {
    const answer = await head('/de?index', {
      method: 'POST',
      headers: { ...BUCKET, 'content-type': 'application/x-www-form-urlencoded', origin: web.url, 'sec-fetch-site': 'same-origin' },
      body: 'intent=code&code=',
    });
    expect(answer).toMatchObject({ status: 200, cacheControl: 'private, no-store' });
  });
});

describe('everything else', () => {
  it('is private: the forms, the console, activation, a client navigation’s data', async () => {
    // The registration form asks the (unreachable) API for the visitor's country, and says so.
    expectConsole('warn', /country detection via the API failed/);
    for (const path of ['/de/registration/formstarted?rc=WELCOME2026', '/admin/login', '/de/registration/activateaccount?activationId=x', '/de/lobby', '/de.data', '/de/membership-interest/apply', '/de/my-data', `/pl/my-data?ref=${'A'.repeat(22)}`]) {
      expect((await head(path, { headers: BUCKET })).cacheControl, path).toBe('private, no-store');
    }
  });

  it('the files say their own lifetimes', async () => {
    expect((await head('/acquisition-defaults.json')).cacheControl).toBe('no-cache');
    expect((await head('/messages/de.json')).cacheControl).toBe('no-cache');
  });
});

describe('an invitation’s page', () => {
  let api: ApiProcess;
  let withApi: TestWebServer;
  beforeAll(async () => {
    api = await startApiProcess();
    withApi = await startWebServer({ API_URL: api.url, TEST_CLOCK: 'true' });
  }, 120_000);
  afterAll(async () => {
    await withApi?.close();
    await api?.dispose();
  });

  async function visit(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${withApi.url}${path}`, { redirect: 'manual', headers: { ...BUCKET, ...headers } });
    return { status: response.status, cacheControl: response.headers.get('cache-control'), location: response.headers.get('location'), setCookie: response.headers.has('set-cookie'), html: await response.text() };
  }

  it('is kept a few seconds when its check is the same for every visitor; with a referrer it is the visitor’s own', async () => {
    const { code } = JSON.parse(await api.cli('code', 'create', '--inviter', 'Małgorzata', '--balance', '5', '--json')) as { code: string };
    // Valid, and refused (a code no one issued): the same page for everyone who opens the address.
    const valid = await visit(`/pl?rc=${code}`);
    expect(valid).toMatchObject({ status: 200, cacheControl: SHARED_INVITATION_PAGE_CACHE_CONTROL, setCookie: false });
    expect(valid.html).toContain('Małgorzata');
    // Nothing of a page load in it: the browser mints its own id.
    expect(valid.html).not.toContain('acq-session-id');
    expect((await visit('/pl?rc=NOSUCHCODE1')).cacheControl).toBe(SHARED_INVITATION_PAGE_CACHE_CONTROL);
    // A code no one could have been given (a NUL byte, which the API refuses as bad input): an
    // invalid invitation, said without asking the API — never "a technical issue" (issue 20 §3).
    const impossible = await visit('/pl?rc=%00AB');
    expect(impossible.cacheControl).toBe(SHARED_INVITATION_PAGE_CACHE_CONTROL);
    expect(impossible.html).toContain(catalogs.pl['invitation.invalid']);
    expect(impossible.html.replace(/<script\b[\s\S]*?<\/script>/g, '')).not.toContain(catalogs.pl['error.generic']);
    // Arriving from another site is this visitor's arrival: kept in their flow cookie, checked against the blocklist.
    const fromElsewhere = await visit(`/pl?rc=${code}`, { referer: 'https://blog.example.org/post' });
    expect(fromElsewhere).toMatchObject({ status: 200, cacheControl: 'private, no-store', setCookie: true });
    const blocked = await visit(`/pl?rc=${code}`, { referer: 'https://www.mydealz.de/deals/1' });
    expect(blocked.status).toBe(302);
    expect(blocked.location).toMatch(/^\/pl\/registration\/deny/);
    expect(blocked.cacheControl).toBe('private, no-store');
  });
});
