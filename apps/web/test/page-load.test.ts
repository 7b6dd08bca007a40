/** One page load, one X-Session-ID; X-Source-Page is the page's path (spec §7.2, ADR 022). */
import { RouterContextProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_COOKIE, authCookie } from '../app/lib/auth-cookie.server.ts';
import { connectionParams } from '../app/lib/api/live-status.ts';
import { pagePath } from '../app/lib/i18n/i18n.ts';
import { isRouterRequest, isSessionId, pagePathSent } from '../app/lib/page/page-load.ts';
import { pageLoadMiddleware, pageLoadOf } from '../app/lib/page/page-load.server.ts';
import { pageLoadContext } from '../app/lib/page/context.ts';

const ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

describe('the page load of a request', () => {
  it('starts with every document request: a new v4 UUID, whatever the request carries', () => {
    const first = pageLoadOf(new Request('http://localhost/de?rc=ABC', { headers: { 'x-session-id': ID } }));
    const second = pageLoadOf(new Request('http://localhost/de?rc=ABC'));
    expect(isSessionId(first.sessionId)).toBe(true);
    expect(first.sessionId).not.toBe(ID);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(first.sourcePage).toBe('/de');
  });

  it('goes on in the .data requests of the same page load, which carry its id', () => {
    const navigation = pageLoadOf(new Request('http://localhost/de/registration/formstarted.data?rc=ABC', { headers: { 'X-Session-ID': ID.toUpperCase() } }));
    expect(navigation).toEqual({ sessionId: ID, sourcePage: '/de/registration/formstarted' });
    const forged = pageLoadOf(new Request('http://localhost/de.data', { headers: { 'x-session-id': 'web-1; drop table' } }));
    expect(isSessionId(forged.sessionId)).toBe(true);
  });

  it('goes on in the proof-of-work challenge the page’s script asks for, in the name of the page it names', () => {
    const challenge = pageLoadOf(new Request('http://localhost/form-challenge?form=REGISTRATION', { headers: { 'X-Session-ID': ID, 'X-Source-Page': '/de/registration/formstarted' } }));
    expect(challenge).toEqual({ sessionId: ID, sourcePage: '/de/registration/formstarted' });
    // A page named wrongly is no page: the API hears of no made-up one.
    for (const forged of ['https://evil.example/', '//evil.example/x', '/entrance/funnel', '/de.data', 'de', `/${'a'.repeat(600)}`, '/de/<script>']) {
      const page = pageLoadOf(new Request('http://localhost/form-challenge?form=REGISTRATION', { headers: { 'x-session-id': ID, 'x-source-page': forged } }));
      expect(page.sourcePage, forged).toBe('/form-challenge');
    }
    // Only a page's own requests name it: a document never takes it from a header.
    expect(pageLoadOf(new Request('http://localhost/de', { headers: { 'x-source-page': '/fr/about-us' } })).sourcePage).toBe('/de');
    expect(pagePathSent('/de/%C3%BCber-uns')).toBe('/de/%C3%BCber-uns');
    expect(pagePathSent('/')).toBe('/');
  });

  it('names the page as the visitor sees it: never .data, / and /de for the landing pages', () => {
    expect(pagePath('/_.data')).toBe('/');
    expect(pagePath('/_root.data')).toBe('/');
    expect(pagePath('/de.data')).toBe('/de');
    expect(pagePath('/de/_.data')).toBe('/de/');
    expect(pagePath('/fr/about-us.data')).toBe('/fr/about-us');
    expect(pagePath('/vip')).toBe('/vip');
    expect(pagePath('')).toBe('/');
  });

  it('is put in the context by the root middleware, with React Router’s normalized path', async () => {
    const context = new RouterContextProvider();
    const request = new Request('http://localhost/_.data?index', { headers: { 'x-session-id': ID } });
    await pageLoadMiddleware(
      { request, url: new URL('http://localhost/'), context, params: {}, pattern: '/' } as unknown as Parameters<typeof pageLoadMiddleware>[0],
      () => Promise.resolve(new Response()),
    );
    expect(context.get(pageLoadContext)).toEqual({ sessionId: ID, sourcePage: '/' });
  });
});

describe('in the browser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('only the router’s own requests are touched', () => {
    const origin = 'https://club.example';
    expect(isRouterRequest(new URL('https://club.example/de/about-us.data'), origin)).toBe(true);
    expect(isRouterRequest(new URL('https://club.example/__manifest?p=%2Fde'), origin)).toBe(true);
    expect(isRouterRequest(new URL('https://club.example/acquisition-defaults.json'), origin)).toBe(false);
    expect(isRouterRequest(new URL('https://elsewhere.example/x.data'), origin)).toBe(false);
  });

  it('the router’s .data requests carry the page load’s id from the document', async () => {
    const seen: { url: string; headers: Headers }[] = [];
    const fetchStub = (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(input instanceof Request ? input.url : input), headers: new Headers(init?.headers) });
      return Promise.resolve(new Response('{}'));
    };
    vi.stubGlobal('window', { fetch: fetchStub, location: { href: 'https://club.example/de', origin: 'https://club.example' } });
    vi.stubGlobal('document', { querySelector: () => ({ content: ID }) });
    const { sendSessionIdWithRouterRequests } = await import('../app/lib/page/page-load.ts');
    sendSessionIdWithRouterRequests();
    const wrapped = (window as unknown as { fetch: typeof fetch }).fetch;
    await wrapped(new URL('https://club.example/de/registration/formstarted.data?rc=A'), { signal: new AbortController().signal });
    await wrapped('/de.data?index', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await wrapped('/acquisition-defaults.json', { credentials: 'include' });
    expect(seen.map((s) => [s.url, s.headers.get('x-session-id'), s.headers.get('content-type')])).toEqual([
      ['https://club.example/de/registration/formstarted.data?rc=A', ID, null],
      ['/de.data?index', ID, 'application/json'],
      ['/acquisition-defaults.json', null, null],
    ]);
  });

  /** A page of `path` in the browser; `documentId`: the id its document names (null: a page a shared cache may keep). */
  function browserPage(path: string, documentId: string | null, fetchStub: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
    const listeners: Record<string, () => void> = {};
    vi.stubGlobal('window', {
      location: { href: `https://club.example${path}`, pathname: path, origin: 'https://club.example' },
      addEventListener: (type: string, listener: () => void) => (listeners[type] = listener),
    });
    vi.stubGlobal('document', {
      querySelector: () => (documentId ? { content: documentId } : null),
      addEventListener: () => undefined,
      documentElement: { lang: 'de' },
      visibilityState: 'visible',
    });
    vi.stubGlobal('fetch', fetchStub);
    return { leave: () => listeners.pagehide?.() };
  }

  it('the proof-of-work challenge carries the page load’s id and the page’s path, like the router’s requests', async () => {
    for (const documentId of [ID, null]) {
      vi.resetModules();
      const seen: Headers[] = [];
      browserPage('/de/registration/formstarted', documentId, (_input, init) => {
        seen.push(new Headers(init?.headers));
        return Promise.resolve(Response.json({ challenge: null }));
      });
      const { solveProofOfWork } = await import('../app/lib/forms/proof-of-work.ts');
      const { pageLoadSessionId } = await import('../app/lib/page/page-load.ts');
      expect(await solveProofOfWork({ form: 'REGISTRATION', registrationCode: 'ABC' })).toBe('');
      // The document's id, or on a page a cache may keep the one the browser minted for this page load.
      const expected = documentId ?? pageLoadSessionId();
      expect(isSessionId(expected)).toBe(true);
      expect(seen.map((h) => [h.get('x-session-id'), h.get('x-source-page'), h.get('accept')])).toEqual([[expected, '/de/registration/formstarted', 'application/json']]);
    }
  });

  it('the funnel’s beacon names the page load’s id and the page’s path, which it cannot send as headers', async () => {
    vi.resetModules();
    const beacons: string[] = [];
    const page = browserPage('/de/registration/formstarted', null, () => Promise.reject(new Error('no fetch expected')));
    vi.stubGlobal('navigator', { sendBeacon: (_url: string, blob: Blob) => (void blob.text().then((text) => beacons.push(text)), true) });
    const { sendFunnelEvent } = await import('../app/lib/analytics/funnel.ts');
    const { pageLoadSessionId } = await import('../app/lib/page/page-load.ts');
    sendFunnelEvent('email_submitted');
    page.leave();
    await vi.waitFor(() => expect(beacons).toHaveLength(1));
    const beacon = JSON.parse(beacons[0]!) as { sessionId: string; pageLoadId: string; page: string };
    expect(beacon.pageLoadId).toBe(pageLoadSessionId());
    expect(beacon.page).toBe('/de/registration/formstarted');
    // The events keep the funnel's own id (ADR 011): nothing stored with them names the page load.
    expect(isSessionId(beacon.sessionId)).toBe(true);
    expect(beacon.sessionId).not.toBe(beacon.pageLoadId);
  });

  it('graphql-ws’s connection_init carries Bearer auth and the page’s ids as headers (spec §7.5)', () => {
    expect(connectionParams({ token: 'eyJ.token', sessionId: ID, sourcePage: '/de/registration/formfinished' })).toEqual({
      headers: {
        Authorization: 'Bearer eyJ.token',
        'X-Correlation-ID': expect.stringMatching(/^acq-web-[0-9a-f-]{36}$/),
        'X-Session-ID': ID,
        'X-Source-Page': '/de/registration/formfinished',
      },
    });
    expect(connectionParams({ token: null, sessionId: ID, sourcePage: '/' }).headers).not.toHaveProperty('Authorization');
  });
});

describe('the auth token cookie', () => {
  it('keeps the member token 7 days, Secure, SameSite=Lax, out of scripts’ reach (spec §9)', () => {
    expect(AUTH_COOKIE).toBe('acq_token');
    expect(authCookie('eyJ.token')).toBe('acq_token=eyJ.token; Max-Age=604800; Path=/; SameSite=Lax; Secure; HttpOnly');
  });
});
