/** The page cache (ADR 039): which requests it may answer, under which key, and what each answer gets of its own. */
import { filePayload } from '@velvet/features/definitions';
import { loadFeatureFile } from '@velvet/features/file';
import { RouterContextProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { localeContext, presetExperimentsContext, requestInfoContext, type RequestInfo } from '../app/lib/context.ts';
import { pageCacheKey } from '../app/lib/page-cache.server.ts';
import { PageCache, fromTemplate, toTemplate, type PageSlots } from '../server/page-cache.ts';
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
