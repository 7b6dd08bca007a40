/**
 * The calls a page's own scripts make through the web server reach the API in that page load's
 * name (spec §7.2: X-Session-ID, one UUID per page load; X-Source-Page, the current path;
 * ADR 022): the proof-of-work challenge, the consent record and the funnel's beacon — on the
 * real web server, with a stand-in API that records what it hears.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandInApi, type StandInApi } from './support/stand-in-api.ts';
import { startWebServer, stopPages, type TestWebServer } from './support/web-server.ts';

const PAGE_LOAD = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const FUNNEL_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

/** What the API heard: one entry per GraphQL operation. */
const heard: { operationName: string; headers: IncomingHttpHeaders; variables: unknown }[] = [];
let api: StandInApi;
let web: TestWebServer;

beforeAll(async () => {
  api = await startStandInApi(({ operationName, variables, headers }) => {
    heard.push({ operationName, headers, variables });
    if (operationName === 'proofOfWorkChallenge') return { data: { proofOfWorkChallenge: { challenge: null } } };
    if (operationName === 'recordConsent') return { data: { recordConsent: true } };
    if (operationName === 'recordFunnelEvents') return { data: { recordFunnelEvents: 1 } };
    return { errors: [{ message: 'not here' }] };
  });
  web = await startWebServer({ API_URL: api.url });
  await fetch(`${web.url}/form-challenge?form=none`); // compile the routes first
}, 120_000);
afterAll(async () => {
  await web?.close();
  await stopPages();
  await api?.close();
});
beforeEach(() => {
  heard.length = 0;
});

/** The API's call for `operationName`, once it arrived (the doors answer before they forward). */
async function call(operationName: string) {
  for (let i = 0; i < 100 && !heard.some((h) => h.operationName === operationName); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const found = heard.find((h) => h.operationName === operationName);
  if (!found) throw new Error(`the API never heard ${operationName}`);
  return { sessionId: found.headers['x-session-id'], sourcePage: found.headers['x-source-page'], variables: found.variables };
}

/** A request of the page's own script, as the browser sends it (same origin). */
const ownScript = { 'sec-fetch-site': 'same-origin' };

describe('one page load, one X-Session-ID and the page’s path on the calls of its scripts', () => {
  it('the proof-of-work challenge is asked in the name of the page load and the page that shows the form, not /form-challenge', async () => {
    const response = await fetch(`${web.url}/form-challenge?form=REGISTRATION&rc=ABC`, {
      headers: { ...ownScript, accept: 'application/json', 'X-Session-ID': PAGE_LOAD, 'X-Source-Page': '/de/registration/formstarted' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: null });
    expect(await call('proofOfWorkChallenge')).toMatchObject({ sessionId: PAGE_LOAD, sourcePage: '/de/registration/formstarted' });
  });

  it('the funnel’s beacon, which cannot carry headers, reaches the API with the page load’s id and page from its body; the events keep the funnel’s own id', async () => {
    const beacon = {
      sessionId: FUNNEL_ID,
      pageLoadId: PAGE_LOAD,
      page: '/fr/registration/formstarted',
      events: [{ name: 'email_submitted', language: 'fr', analyticsConsent: false }],
    };
    // navigator.sendBeacon: a Blob of JSON, no header of ours, and here no Referer either (a browser may leave it out).
    const response = await fetch(`${web.url}/entrance/funnel`, { method: 'POST', headers: { ...ownScript, 'content-type': 'application/json' }, body: JSON.stringify(beacon) });
    expect(response.status).toBe(204);
    const { sessionId, sourcePage, variables } = await call('recordFunnelEvents');
    expect({ sessionId, sourcePage }).toEqual({ sessionId: PAGE_LOAD, sourcePage: '/fr/registration/formstarted' });
    expect(variables).toEqual({ events: [{ name: 'email_submitted', sessionId: FUNNEL_ID, language: 'fr', analyticsConsent: false }] });
  });

  it('the consent record names its page even when the browser sends no Referer', async () => {
    const record = { consentId: FUNNEL_ID, action: 'ACCEPT_ALL', source: 'BANNER', analytics: true, marketing: false, version: 1, language: 'pl' };
    const response = await fetch(`${web.url}/entrance/cmp/consent`, {
      method: 'POST',
      headers: { ...ownScript, 'content-type': 'application/json', 'X-Session-ID': PAGE_LOAD, 'X-Source-Page': '/pl/about-us' },
      body: JSON.stringify(record),
    });
    expect(response.status).toBe(204);
    expect(await call('recordConsent')).toMatchObject({ sessionId: PAGE_LOAD, sourcePage: '/pl/about-us' });
  });

  it('a page named wrongly is not passed on: the Referer’s page when there is one', async () => {
    const beacon = { sessionId: FUNNEL_ID, pageLoadId: 'not-an-id', page: 'https://evil.example/x', events: [{ name: 'landing', analyticsConsent: false }] };
    await fetch(`${web.url}/entrance/funnel`, {
      method: 'POST',
      headers: { ...ownScript, 'content-type': 'text/plain', referer: `${web.env.PUBLIC_URL}/it/about-us` },
      body: JSON.stringify(beacon),
    });
    expect(await call('recordFunnelEvents')).toMatchObject({ sessionId: undefined, sourcePage: '/it/about-us' });
  });
});
