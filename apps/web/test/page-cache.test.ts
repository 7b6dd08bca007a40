/** The page cache (ADR 039): which requests it may answer, under which key, and what each answer gets of its own. */
import { once } from 'node:events';
import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import { filePayload, type ExperimentRule, type FeaturePayload } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import { RouterContextProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { localeContext, presetExperimentsContext, requestInfoContext, type RequestInfo } from '../app/lib/context.ts';
import pino from 'pino';
import { cacheKeyOf, pageCacheKey } from '../app/lib/page-cache.server.ts';
import { PageCache, fromTemplate, stitchGzip, toTemplate, type PageSlots } from '../server/page-cache.ts';
import { acceptsGzip, pageCacheDoor } from '../server/page-door.ts';
import { testRequestExtras } from './support/request-info.ts';

const { file, modifiedAt } = loadFeatureFile();
const payload = filePayload(file, modifiedAt);

function context(overrides: Partial<RequestInfo> = {}): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(requestInfoContext, {
    nonce: 'n', correlationId: 'c', clientIp: '203.0.113.9', apiUrl: 'http://127.0.0.1:9', publicApiUrl: 'http://127.0.0.1:9',
    publicUrl: 'https://club.example', environment: 'test', gtmContainerId: undefined, trustedCountryHeader: 'cf-ipcountry',
    secureCookies: true, appSecret: 'x'.repeat(32), formMinFillSeconds: 0, formStartedAt: 'f.sig', appSchemePrefix: 'velvetrope://',
    consent: { enabled: true, settingsId: 's', appVersion: '1', gtmScriptUrl: 'https://tags.example/gtm.js' },
    ...testRequestExtras({ features: { clientKey: 'sdk-velvet-rope', payload: () => Promise.resolve(payload) } }),
    ...overrides,
  } satisfies RequestInfo);
  provider.set(localeContext, { locale: 'en', prefix: '' });
  return provider;
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(`https://club.example${path}`, { headers });

describe('which pages the cache may answer', () => {
  it('only anonymous GETs without a query, without cookies but the language ones, without a test clock', async () => {
    for (const request of [
      get('/?rc=WELCOME2026'),
      get('/?utm_source=x'),
      get('/', { cookie: 'acq_flow=abc' }),
      get('/', { cookie: 'lang=de; acq_consent=%7B%7D' }),
      get('/', { 'x-test-now': '2026-06-15T10:00:00.000Z' }),
      get('/', { authorization: 'Bearer x' }),
      get('/_root.data'),
      new Request('https://club.example/', { method: 'POST', body: new URLSearchParams({ intent: 'code' }) }),
    ]) {
      expect(await pageCacheKey(request, context()), request.url).toBeNull();
    }
    expect(await pageCacheKey(get('/de'), context())).not.toBeNull();
    expect(await pageCacheKey(get('/', { cookie: 'lang=de; locale=de' }), context())).not.toBeNull();
  });

  it('keys what the page depends on, and presets the experiments the page renders with', async () => {
    const keyOf = async (request: Request, info?: Partial<RequestInfo>) => {
      const provider = context(info);
      const found = await pageCacheKey(request, provider);
      expect(provider.get(presetExperimentsContext)).toBe(found!.experiments);
      return found!.key;
    };
    const english = await keyOf(get('/'));
    expect(await keyOf(get('/', { cookie: 'lang=de' }))).not.toBe(english);
    expect(await keyOf(get('/', { 'accept-language': 'de-DE' }))).not.toBe(english);
    expect(await keyOf(get('/', { 'cf-ipcountry': 'AT' }))).not.toBe(english);
    expect(await keyOf(get('/', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }))).not.toBe(english);
    expect(await keyOf(get('/about-us'))).not.toBe(english);
    const changed = { ...payload, dateUpdated: '2027-01-01T00:00:00.000Z', features: { ...payload.features, 'show-onboarding': { defaultValue: false } } };
    expect(await keyOf(get('/'), { features: { clientKey: 'sdk-velvet-rope', payload: () => Promise.resolve(changed) } })).not.toBe(english);
  });

  it('never hands a visitor outside an experiment the page of one in its control arm (issue 18 §5)', async () => {
    // Half the visitors in an experiment whose two arms show what everyone else sees: the values alone cannot tell them apart.
    const rule: ExperimentRule = { key: 'same-copy-test', variations: ['a', 'a'], weights: [0.5, 0.5], coverage: 0.5, hashAttribute: 'acqAnonymousId', hashVersion: 2 };
    const experiment: FeaturePayload = { ...payload, features: { ...payload.features, 'same-copy': { defaultValue: 'a', rules: [rule] } } };
    const seen = new Map<string, string>();
    for (let visitor = 0; visitor < 60; visitor++) {
      const provider = context({ features: { clientKey: 'sdk-velvet-rope', payload: () => Promise.resolve(experiment) } });
      const found = (await pageCacheKey(get('/'), provider))!;
      const arm = found.experiments.assignments['same-copy']?.variationId ?? 'outside';
      expect(found.experiments.values['same-copy']).toBe('a');
      // One key per arm (and one for those outside), never a key shared by two.
      expect(seen.get(found.key) ?? arm, found.key).toBe(arm);
      seen.set(found.key, arm);
    }
    expect(new Set(seen.values())).toEqual(new Set(['outside', '0', '1']));
  });
});

const VALUES: PageSlots = {
  nonce: 'AbC+/12==',
  sessionId: '11111111-1111-4111-8111-111111111111',
  anonymousId: '22222222-2222-4222-8222-222222222222',
  now: 1781517600000,
  formStartedAt: 'mbq1x2y3.sig-of-the-render',
};
const PAGE = `<meta name="acq-session-id" content="${VALUES.sessionId}"/><script nonce="${VALUES.nonce}">x</script><script nonce="${VALUES.nonce}">["${VALUES.anonymousId}",${VALUES.now},17815176000001,21781517600000,"${VALUES.sessionId}","${VALUES.formStartedAt}"]</script>`;
const html = (headers: Record<string, string> = {}) => ({ status: 200, headers: new Headers({ 'content-type': 'text/html; charset=utf-8', ...headers }), body: PAGE });

describe('the stored page', () => {
  it('holds none of the response’s own values, and each answer gets its own', () => {
    const { parts, slots } = toTemplate(PAGE, VALUES);
    const stored = parts.join('');
    for (const value of [VALUES.nonce, VALUES.sessionId, VALUES.anonymousId, VALUES.formStartedAt]) expect(stored).not.toContain(value);
    // Only the instant itself, not longer numbers that contain its digits.
    expect(stored).toContain('17815176000001');
    expect(stored).toContain('21781517600000');
    const next: PageSlots = { nonce: 'zzz', sessionId: 's-2', anonymousId: 'a-2', now: 5, formStartedAt: 'f-2' };
    expect(fromTemplate(parts, slots, next)).toBe(
      '<meta name="acq-session-id" content="s-2"/><script nonce="zzz">x</script><script nonce="zzz">["a-2",5,17815176000001,21781517600000,"s-2","f-2"]</script>',
    );
  });

  it('answers with a fresh nonce, page-load id, instant and form start, until the page’s calendar changes or it grows old', () => {
    let clock = 0;
    const cache = new PageCache({ maxAgeMs: 1000, clock: () => clock });
    expect(cache.set('k', html(), VALUES, VALUES.now + 60_000)).toBe(true);
    const first = cache.get('k', { nonce: 'n1', anonymousId: 'a1', now: VALUES.now + 1, formStartedAt: 'f-n1' })!;
    const second = cache.get('k', { nonce: 'n2', anonymousId: 'a2', now: VALUES.now + 2, formStartedAt: 'f-n2' })!;
    const body = (answer: { body: Buffer }) => answer.body.toString('utf8');
    expect(body(first)).toContain('nonce="n1"');
    expect(body(first)).toContain(`"a1",${VALUES.now + 1},`);
    expect(body(second)).toContain('nonce="n2"');
    // A bot fetching a cached page gets this response's form start, never the stored render's (ADR 041).
    expect(body(first)).toContain('"f-n1"');
    expect(body(second)).toContain('"f-n2"');
    const session = (answer: { body: Buffer }) => /content="([^"]+)"/.exec(body(answer))![1];
    expect(session(first)).not.toBe(session(second));
    expect(session(first)).not.toBe(VALUES.sessionId);
    expect(first.headers).toContainEqual(['content-type', 'text/html; charset=utf-8']);

    expect(cache.get('k', { nonce: 'n', anonymousId: 'a', now: VALUES.now + 60_000, formStartedAt: 'f-n' })).toBeNull();
    cache.set('k', html(), VALUES, VALUES.now + 60_000);
    clock = 1000;
    expect(cache.get('k', { nonce: 'n', anonymousId: 'a', now: VALUES.now, formStartedAt: 'f-n' })).toBeNull();
  });

  it('keeps only complete HTML pages without cookies, and the most recently used ones', () => {
    const cache = new PageCache({ maxEntries: 2 });
    expect(cache.set('cookie', html({ 'set-cookie': 'acq_flow=1' }), VALUES, Infinity)).toBe(false);
    expect(cache.set('json', { ...html(), headers: new Headers({ 'content-type': 'application/json' }) }, VALUES, Infinity)).toBe(false);
    expect(cache.set('404', { ...html(), status: 404 }, VALUES, Infinity)).toBe(false);
    expect(cache.set('no nonce', html(), { ...VALUES, nonce: 'not-in-the-page' }, Infinity)).toBe(false);
    cache.set('a', html(), VALUES, Infinity);
    cache.set('b', html(), VALUES, Infinity);
    cache.get('a', VALUES);
    cache.set('c', html(), VALUES, Infinity);
    expect(cache.size).toBe(2);
    expect(cache.get('b', VALUES)).toBeNull();
    expect(cache.get('a', VALUES)).not.toBeNull();
  });
});

describe('the stored page, compressed once', () => {
  it('answers a gzip stream that decodes to the very page its identity answer is, with each answer’s own values', () => {
    // A page of realistic size: the slots sit between long runs of markup.
    const markup = (from: number) => Array.from({ length: 200 }, (_, i) => `<li class="brand">Brand ${from + i} — up to ${(i * 7) % 75}% off</li>`).join('');
    const page = `<html><head><script nonce="${VALUES.nonce}">${markup(0)}</script></head><body>${PAGE}${markup(200)}</body></html>`;
    const cache = new PageCache();
    cache.set('k', { ...html(), body: page }, VALUES, Infinity);
    // Values as long as the stored render's are stitched from the stored runs; others make the page compressed whole.
    const sameLengths = (n: number) => ({ nonce: `${VALUES.nonce.slice(0, -1)}${n}`, anonymousId: VALUES.anonymousId.replace('2222', `${n}${n}${n}${n}`), now: VALUES.now + n, formStartedAt: VALUES.formStartedAt.replace('sig', `s${n}g`) });
    for (const values of [sameLengths(3), sameLengths(4), { nonce: 'n1', anonymousId: 'a-n1', now: 5, formStartedAt: 'f-n1' }]) {
      const { nonce } = values;
      const zipped = cache.get('k', values, { gzip: true })!;
      const plainAnswer = cache.get('k', values)!;
      expect(zipped.encoding).toBe('gzip');
      expect(plainAnswer.encoding).toBe('identity');
      const decoded = gunzipSync(zipped.body).toString('utf8');
      // The page-load id is fresh per answer: everything else is the same page.
      const withoutSession = (text: string) => text.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, 'S');
      expect(withoutSession(decoded)).toBe(withoutSession(plainAnswer.body.toString('utf8')));
      expect(decoded).toContain(`nonce="${nonce}"`);
      expect(decoded).toContain(`"${values.anonymousId}",${values.now},`);
      // Compressed apart, the parts are about as small as the page compressed whole.
      expect(zipped.body.length).toBeLessThan(gzipSync(decoded).length * 1.05);
      expect(zipped.body.length).toBeLessThan(decoded.length / 5);
    }
  });

  it('stores values longer than one stored block can hold', () => {
    const raw = [Buffer.from('<p>'), Buffer.from('x'.repeat(70_000)), Buffer.from('</p>')];
    const deflated = [raw[0]!, raw[2]!].map((part) => deflateRawSync(part, { finishFlush: constants.Z_SYNC_FLUSH }));
    expect(gunzipSync(stitchGzip(raw, deflated)).toString()).toBe(`<p>${'x'.repeat(70_000)}</p>`);
  });

  it('compresses for clients that accept gzip, by name or by *, and for no one who refuses it', () => {
    for (const header of ['gzip, deflate, br, zstd', 'br;q=1.0, gzip;q=0.8', 'GZIP', '*', 'br, *;q=0.1', 'x-gzip']) expect(acceptsGzip(header), header).toBe(true);
    for (const header of [undefined, '', 'br', 'identity', 'gzip;q=0', '*;q=0', 'gzip;q=0, *', 'deflate, br']) expect(acceptsGzip(header), String(header)).toBe(false);
  });
});

describe('the door in front of Express', () => {
  /** The features without the A/B tests: every visitor's key is then the same (with them, each variation has its own). */
  const steady = { ...payload, features: Object.fromEntries(Object.entries(payload.features).filter(([, feature]) => !JSON.stringify(feature).includes('"variations"'))) };
  /** A German visitor's phone browser (the key tells bots apart). */
  const BROWSER = {
    'accept-language': 'de-DE,de;q=0.9',
    'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  };

  async function serve(cache: PageCache, lines: Record<string, unknown>[]) {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const door = pageCacheDoor({
      cache,
      keyOf: cacheKeyOf,
      inputs: () => ({ clientKey: 'sdk-velvet-rope', payload: steady, trustedCountryHeader: 'cf-ipcountry', publicUrl: 'https://club.example' }),
      formStartedAt: () => 'fresh.form-start',
      trustProxy: false,
      logger,
    });
    const server = createServer((req, res) => {
      if (!door(req, res)) res.writeHead(200, { 'x-page-cache': 'express' }).end('express');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
  }

  /** Stores a page as the page handler would: under its key, with the front headers its middleware set. */
  function store(cache: PageCache, path: string, headers: Record<string, string> = {}, host = '127.0.0.1') {
    const found = cacheKeyOf(
      { method: 'GET', url: `http://${host}${path}`, headers: new Headers(headers) },
      { clientKey: 'sdk-velvet-rope', payload: steady, trustedCountryHeader: 'cf-ipcountry', publicUrl: 'https://club.example', calendarNow: new Date() },
    )!;
    expect(Object.keys(steady.features).length).toBeGreaterThan(0);
    const values = { ...VALUES, anonymousId: found.experiments.attributes.acqAnonymousId, now: Date.now() };
    const page = PAGE.replace(`"${VALUES.anonymousId}",${VALUES.now}`, `"${values.anonymousId}",${values.now}`);
    const front: [string, string][] = [
      ['content-security-policy', `default-src 'self';script-src 'self' 'nonce-${VALUES.nonce}' 'strict-dynamic'`],
      ['x-content-type-options', 'nosniff'],
      ['x-correlation-id', 'web-of-the-stored-render'],
      ['x-page-cache', 'miss'],
    ];
    expect(cache.set(found.key, { ...html(), body: page }, values, Date.now() + 60_000, front)).toBe(true);
  }

  it('answers a stored page with the security headers of the stored response, its own nonce and correlation id, and logs the path', async () => {
    const cache = new PageCache();
    store(cache, '/de', BROWSER);
    const lines: Record<string, unknown>[] = [];
    const { base, close } = await serve(cache, lines);
    try {
      const answers = await Promise.all([0, 1].map(() => fetch(`${base}/de`, { headers: BROWSER })));
      const nonces = [];
      for (const answer of answers) {
        expect(answer.headers.get('x-page-cache')).toBe('hit');
        expect(answer.headers.get('content-encoding')).toBe('gzip');
        expect(answer.headers.get('vary')).toBe('Accept-Encoding');
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('x-correlation-id')).toMatch(/^web-[0-9a-f-]{36}$/);
        const nonce = /'nonce-([^']+)'/.exec(answer.headers.get('content-security-policy') ?? '')?.[1];
        const body = await answer.text();
        expect(nonce).toBeTruthy();
        expect(nonce).not.toBe(VALUES.nonce);
        expect([...body.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1])).toEqual([nonce, nonce]);
        expect(body).toContain('"fresh.form-start"');
        nonces.push(nonce);
      }
      expect(nonces[0]).not.toBe(nonces[1]);
      const traced = await fetch(`${base}/de`, { headers: { ...BROWSER, 'x-correlation-id': 'trace-1', 'accept-encoding': 'identity' } });
      expect(traced.headers.get('x-correlation-id')).toBe('trace-1');
      expect(traced.headers.get('content-encoding')).toBeNull();
      expect(await traced.text()).toContain('acq-session-id');
      expect(lines.filter((line) => line.msg === 'request')).toContainEqual(expect.objectContaining({ correlationId: 'trace-1', method: 'GET', path: '/de', status: 200 }));
    } finally {
      close();
    }
  });

  it('leaves everything else to Express: other keys, queries, cookies, other methods, unknown pages', async () => {
    const cache = new PageCache();
    store(cache, '/de', BROWSER);
    const { base, close } = await serve(cache, []);
    try {
      expect((await fetch(`${base}/de`, { headers: BROWSER })).headers.get('x-page-cache')).toBe('hit');
      const passes = [
        fetch(`${base}/de`, { headers: { ...BROWSER, 'accept-language': 'pl-PL' } }),
        fetch(`${base}/de`, { headers: { ...BROWSER, 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } }),
        fetch(`${base}/de?rc=WELCOME2026`, { headers: BROWSER }),
        fetch(`${base}/de`, { headers: { ...BROWSER, cookie: 'acq_flow=abc' } }),
        fetch(`${base}/de`, { headers: { ...BROWSER, 'x-test-now': '2026-06-15T10:00:00.000Z' } }),
        fetch(`${base}/de`, { method: 'POST', headers: BROWSER, body: 'intent=code' }),
        fetch(`${base}/de/about-us`, { headers: BROWSER }),
      ];
      for (const answer of await Promise.all(passes)) expect(answer.headers.get('x-page-cache')).toBe('express');
      // The host names the country when the visitor's language has no region: the key reads it as the page handler does.
      const noRegion = { ...BROWSER, 'accept-language': 'de' };
      store(cache, '/de', noRegion, 'velvetrope.at');
      const byHost = (host: string) =>
        new Promise<string | undefined>((resolve, reject) => {
          httpGet(`${base}/de`, { headers: { ...noRegion, host } }, (answer) => {
            answer.resume();
            resolve(answer.headers['x-page-cache'] as string | undefined);
          }).on('error', reject);
        });
      expect(await byHost('velvetrope.at')).toBe('hit');
      expect(await byHost('velvetrope.at:443')).toBe('hit');
      expect(await byHost('velvetrope.pl')).toBe('express');
      // A page stored without the front headers (the Express path's own hits) is not answered here.
      const bare = new PageCache();
      const found = cacheKeyOf({ method: 'GET', url: 'http://door/', headers: new Headers() }, { clientKey: 'sdk-velvet-rope', payload, trustedCountryHeader: 'cf-ipcountry', publicUrl: 'https://club.example', calendarNow: new Date() })!;
      bare.set(found.key, html(), VALUES, Infinity);
      expect(bare.get(found.key, VALUES)!.front).toBeNull();
    } finally {
      close();
    }
  });
});
