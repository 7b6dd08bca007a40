/**
 * One route per screen after an optional language segment (ADR 059): a first segment that
 * names no language is not a page. On the real web server: such an address answers the site's
 * 404 in the visitor's language inside the frame, and nothing the page would have done happens
 * (the API hears nothing, not even for a form sent to it).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogs } from '@velvet/i18n/catalogs';
import { startStandInApi, type StandInApi } from './support/stand-in-api.ts';
import { startWebServer, stopPages, type TestWebServer } from './support/web-server.ts';

let web: TestWebServer;
let api: StandInApi;
/** The operations the stand-in API was asked for (it answers none). */
const operations: string[] = [];

beforeAll(async () => {
  api = await startStandInApi(({ operationName }) => {
    operations.push(operationName);
    return { status: 404, body: {} };
  });
  web = await startWebServer({ API_URL: api.url });
  await fetch(`${web.url}/de/about-us`); // compile the pages first
}, 120_000);
afterEach(() => {
  operations.length = 0;
});
afterAll(async () => {
  await web?.close();
  await stopPages();
  await api?.close();
});

const de = catalogs.de;
const GERMAN = { 'accept-language': 'de' };

async function visit(path: string, init: RequestInit = {}) {
  const response = await fetch(`${web.url}${path}`, { redirect: 'manual', ...init, headers: { ...GERMAN, ...init.headers } });
  const html = await response.text();
  return { status: response.status, html, text: html.replace(/<script\b[\s\S]*?<\/script>/g, '') };
}

describe('an address whose first segment names no language', () => {
  it('is the site’s 404 in the visitor’s language, in the frame, wherever the rest would match a page', async () => {
    for (const path of ['/xx/about-us', '/vip/registration/deny?reason=token', '/lobby/membership-interest/apply', '/EN-GB/stores']) {
      const { status, html, text } = await visit(path);
      expect(status, path).toBe(404);
      expect(html, path).toMatch(/<html lang="de"/);
      expect(text, path).toContain(`>${de['notFound.title']}</h1>`);
      expect(text, path).toContain(de['nav.backToStart']);
    }
  });

  it('does nothing the page would do: an activation link or a form sent there never reaches the API', async () => {
    const activation = await visit('/xx/registration/activateaccount?activationId=abcdefghijklmnopqrstuvwxyz');
    expect(activation.status).toBe(404);
    expect(activation.text).not.toContain(de['activation.title']);
    const sent = await visit('/xx/membership-interest/apply', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: web.url },
      body: new URLSearchParams({ email: 'paula@example.de', country: 'DE' }),
    });
    expect(sent.status).toBe(404);
    expect(operations).toEqual([]);
  });

  it('answers a client-side navigation (its .data request) with the same 404', async () => {
    const response = await fetch(`${web.url}/xx/about-us.data`);
    expect(response.status).toBe(404);
  });

  it('leaves the pages of the eight variants and the campaign slugs as they are', async () => {
    for (const path of ['/about-us', '/de/about-us', '/sv/stores', '/vip', '/de/vip', '/de']) {
      expect((await visit(path)).status, path).toBe(200);
    }
    const unknownSlug = await visit('/de/no-such-campaign');
    expect(unknownSlug.status).toBe(404);
    expect(unknownSlug.text).toContain('/de/no-such-campaign');
  });
});
