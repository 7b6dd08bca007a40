import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RouterContextProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi } from '../app/lib/api/api.server.ts';
import { apiFailureMessage } from '../app/lib/registration/registration-code.server.ts';
import { pageLoadContext, requestInfoContext, type ApiFailureReport } from '../app/lib/page/context.ts';
import { getCountryDetails } from '../app/lib/api/operations.ts';
import { testRequestExtras } from './support/request-info.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A real HTTP peer on loopback standing in for the API. */
async function fakeApi(handler: (headers: IncomingHttpHeaders, body: string, respond: (status: number, json: unknown) => void) => void) {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req.headers, body, (status, json) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json))));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

/** What the application-level hook for GraphQL and network errors received. */
const failures: ApiFailureReport[] = [];

function contextFor(apiUrl: string) {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, {
    contentSecurityPolicy: () => '', correlationId: 'web-1', clientIp: '203.0.113.9', apiUrl, publicApiUrl: apiUrl, publicUrl: 'http://localhost:3000',
    environment: 'test', gtmContainerId: undefined, trustedCountryHeader: 'cf-ipcountry', secureCookies: false, appSecret: 'x'.repeat(32), formMinFillSeconds: 0, appSchemePrefix: 'velvetrope://',
    consent: { enabled: true, settingsId: 'test', appVersion: '0.0.0', gtmScriptUrl: 'https://www.googletagmanager.com/gtm.js' },
    ...testRequestExtras({ errors: { browserEndpoint: null, report: () => undefined, apiFailure: (failure) => void failures.push(failure) } }),
  });
  context.set(pageLoadContext, { sessionId: PAGE_LOAD, sourcePage: '/de/about-us' });
  return context;
}

/** The page load's id, as the root middleware puts it in the context. */
const PAGE_LOAD = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

const request = new Request('http://localhost:3000/de/about-us?x=1', {
  headers: { cookie: 'acq_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig_-1', 'accept-language': 'de-AT', 'cf-ipcountry': 'AT' },
});

describe('the web server’s API client', () => {
  it('sends the spec’s headers and returns the data', async () => {
    let seen: IncomingHttpHeaders = {};
    let sent = '';
    const url = await fakeApi((headers, body, respond) => {
      seen = headers;
      sent = body;
      respond(200, { data: { countryDetails: { country: 'AT' } } });
    });
    const result = await callApi(getCountryDetails, {}, { request, context: contextFor(url) });
    expect(result).toEqual({ ok: true, data: { countryDetails: { country: 'AT' } } });
    expect(seen['x-correlation-id']).toMatch(/^acq-web-[0-9a-f-]{36}$/);
    expect(seen['x-session-id']).toBe(PAGE_LOAD);
    expect(seen['x-source-page']).toBe('/de/about-us');
    expect(seen.authorization).toBe('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig_-1');
    expect(seen['x-forwarded-for']).toBe('203.0.113.9');
    expect(seen['accept-language']).toBe('de-AT');
    expect(seen['cf-ipcountry']).toBe('AT');
    expect(JSON.parse(sent)).toMatchObject({ operationName: 'countryDetails' });
  });

  it('does not pass on an auth cookie that is no token, and the page still gets its answer (found by the fuzz suite)', async () => {
    let seen: IncomingHttpHeaders = {};
    const url = await fakeApi((headers, _body, respond) => {
      seen = headers;
      respond(200, { data: { countryDetails: { country: 'AT' } } });
    });
    // A cookie's bytes arrive as Latin-1 (the second: UTF-8 bytes sent raw); the first decodes to a character past Latin-1.
    for (const cookie of ['acq_token=%F0%B2%A9%AC', `acq_token=${Buffer.from('𲩬').toString('latin1')}`, 'acq_token={{7*7}}', `acq_token=${'a.'.repeat(3000)}a`]) {
      const hostile = new Request('http://localhost:3000/it/app', { headers: { cookie } });
      expect(await callApi(getCountryDetails, {}, { request: hostile, context: contextFor(url) })).toEqual({ ok: true, data: { countryDetails: { country: 'AT' } } });
      expect(seen.authorization).toBeUndefined();
    }
  });

  it('sends a data request’s page load and page, not its .data path nor the web server’s own correlation id', async () => {
    let seen: IncomingHttpHeaders = {};
    const url = await fakeApi((headers, _body, respond) => {
      seen = headers;
      respond(200, { data: { countryDetails: { country: 'AT' } } });
    });
    const context = contextFor(url);
    const dataRequest = new Request('http://localhost:3000/de/registration/formstarted.data?rc=A', { headers: { 'x-session-id': PAGE_LOAD } });
    context.set(pageLoadContext, { sessionId: PAGE_LOAD, sourcePage: '/de/registration/formstarted' });
    await callApi(getCountryDetails, {}, { request: dataRequest, context });
    expect(seen['x-session-id']).toBe(PAGE_LOAD);
    expect(seen['x-source-page']).toBe('/de/registration/formstarted');
  });

  it('reports a time-out, an unreachable API, a rate limit and a server error as data', async () => {
    const hanging = await fakeApi(() => undefined);
    expect(await callApi(getCountryDetails, {}, { request, context: contextFor(hanging), timeoutMs: 50 })).toEqual({ ok: false, error: { kind: 'timeout' } });

    expect(await callApi(getCountryDetails, {}, { request, context: contextFor('http://127.0.0.1:9') })).toEqual({ ok: false, error: { kind: 'connection' } });

    server?.close();
    const limited = await fakeApi((_h, _b, respond) => respond(200, { data: null, errors: [{ message: 'slow down', extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 42 } }] }));
    expect(await callApi(getCountryDetails, {}, { request, context: contextFor(limited) })).toEqual({ ok: false, error: { kind: 'rate-limited', retryAfterSeconds: 42 } });

    server?.close();
    const broken = await fakeApi((_h, _b, respond) => respond(500, { errors: [{ message: 'Unexpected error.' }] }));
    expect(await callApi(getCountryDetails, {}, { request, context: contextFor(broken) })).toEqual({ ok: false, error: { kind: 'generic' } });
  });

  it('reports an operation the API shed under load as busy, to send again in a moment (ADR 052)', async () => {
    const busy = await fakeApi((_h, _b, respond) =>
      respond(200, { errors: [{ message: 'The service is busy. Please try again in a moment.', extensions: { code: 'OVERLOADED', retryAfterSeconds: 1 } }] }),
    );
    const result = await callApi(getCountryDetails, {}, { request, context: contextFor(busy) });
    expect(result).toEqual({ ok: false, error: { kind: 'busy', retryAfterSeconds: 1 } });
    if (!result.ok) expect(apiFailureMessage(result.error)).toEqual({ id: 'error.busy' });
  });

  it('passes every GraphQL and network failure to the application-level hook, and no success', async () => {
    failures.length = 0;
    const ok = await fakeApi((_h, _b, respond) => respond(200, { data: { countryDetails: { country: 'AT' } } }));
    await callApi(getCountryDetails, {}, { request, context: contextFor(ok) });
    expect(failures).toEqual([]);
    server?.close();
    const broken = await fakeApi((_h, _b, respond) => respond(200, { data: null, errors: [{ message: 'x', extensions: { code: 'INTERNAL' } }] }));
    await callApi(getCountryDetails, {}, { request, context: contextFor(broken) });
    await callApi(getCountryDetails, {}, { request, context: contextFor('http://127.0.0.1:9') });
    expect(failures).toEqual([
      { operation: 'countryDetails', kind: 'generic', status: 200, codes: ['INTERNAL'], variables: {}, page: '/de/about-us' },
      { operation: 'countryDetails', kind: 'connection', status: undefined, codes: undefined, variables: {}, page: '/de/about-us' },
    ]);
  });
});
