/**
 * Spec §2: "A middleware name that is unknown raises 'Unknown route middleware'. During first
 * load, a middleware returning false or an error produces a 404 'Page Not Found'." On the real
 * web server: the activation page's language middleware made to fail answers the 404 page in
 * the visitor's language, inside the site's frame — not the framework's 500.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogs } from '@velvet/i18n/catalogs';
import type * as RouteMiddlewareModule from '../app/lib/page/route-middleware.ts';
import { routeMiddleware } from '../app/lib/page/route-middleware.ts';
import { expectConsole } from './support/console-guard.ts';
import { startStandInApi, type StandInApi } from './support/stand-in-api.ts';
import { pagesModule, startWebServer, stopPages, type TestWebServer } from './support/web-server.ts';

let web: TestWebServer;
let middleware: typeof RouteMiddlewareModule.ROUTE_MIDDLEWARE;
let language: RouteMiddlewareModule.RouteMiddleware;
/** The operations the stand-in API was asked for (it answers none). */
const operations: string[] = [];
let api: StandInApi;

beforeAll(async () => {
  api = await startStandInApi(({ operationName }) => {
    operations.push(operationName);
    return { status: 404, body: {} };
  });
  web = await startWebServer({ API_URL: api.url });
  middleware = (await pagesModule<typeof RouteMiddlewareModule>('/app/lib/page/route-middleware.ts')).ROUTE_MIDDLEWARE;
  language = middleware.language!;
  await fetch(`${web.url}/de/registration/activateaccount`); // compile the pages first
}, 120_000);
afterEach(() => {
  middleware.language = language;
  operations.length = 0;
});
afterAll(async () => {
  await web?.close();
  await stopPages();
  await api?.close();
});

const ACTIVATION = '/de/registration/activateaccount?activationId=abcdefghijklmnopqrstuvwxyz';
const de = catalogs.de;

/** The page's visible text (without the scripts, which carry the catalog). */
async function page(path: string) {
  const response = await fetch(`${web.url}${path}`);
  const html = await response.text();
  return { status: response.status, html, text: html.replace(/<script\b[\s\S]*?<\/script>/g, '') };
}

describe('a route middleware that fails', () => {
  it('throwing: the spec’s 404 in the visitor’s language inside the site’s frame, not a 500', async () => {
    middleware.language = () => {
      throw new Error('the language middleware broke');
    };
    expectConsole('error', /the language middleware broke/);
    const { status, html, text } = await page(ACTIVATION);
    expect(status).toBe(404);
    expect(html).toMatch(/<html lang="de"/);
    expect(text).toContain(de['notFound.text']);
    expect(text).toContain(de['nav.backToStart']);
    expect(text).not.toContain(de['error.internal']);
    // The site's own header, with the way home, as on every page of this layout.
    // (The pages write the brand name with a no-break space: use-root.ts, issue 22 row 7.)
    expect(text).toContain(`aria-label="${de['nav.home']!.replace('Velvet Rope', 'Velvet\u00a0Rope')}"`);
    // In English, spec §2's own words for it: "Page Not Found".
    const english = await page('/registration/activateaccount?activationId=abcdefghijklmnopqrstuvwxyz');
    expect(english.status).toBe(404);
    expect(english.text).toContain(`>${catalogs.en['error.pageNotFound']}</h1>`);
    expect(english.text).toContain(catalogs.en['notFound.text']);
  });

  it('returning false or an Error: the same 404', async () => {
    for (const failure of [false, new Error('the language middleware said no')] as const) {
      middleware.language = () => failure;
      expectConsole('error', failure ? /said no/ : /returned false/);
      const { status, text } = await page(ACTIVATION);
      expect(status).toBe(404);
      expect(text).toContain(de['notFound.text']);
    }
  });

  it('failing after the page was prepared: the same 404, nothing of the page in it', async () => {
    middleware.language = async (_args, next) => {
      await next();
      throw new Error('the language middleware broke late');
    };
    expectConsole('error', /broke late/);
    const { status, html, text } = await page(ACTIVATION);
    expect(status).toBe(404);
    expect(html).toMatch(/<html lang="de"/);
    expect(text).toContain(de['notFound.text']);
    expect(html).not.toContain('abcdefghijklmnopqrstuvwxyz');
  });

  it('a form sent to the page is not acted on: the 404, and the API hears nothing', async () => {
    middleware.language = () => false;
    expectConsole('error', /returned false/);
    const response = await fetch(`${web.url}${ACTIVATION}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: web.url },
      body: new URLSearchParams({ activationId: 'abcdefghijklmnopqrstuvwxyz' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(de['notFound.text']);
    expect(operations).not.toContain('activateAccount');
  });

  it('on a client-side navigation to the page too (its .data request)', async () => {
    middleware.language = () => Promise.reject(new Error('the language middleware broke'));
    expectConsole('error', /the language middleware broke/);
    const response = await fetch(`${web.url}/de/registration/activateaccount.data?activationId=abcdefghijklmnopqrstuvwxyz`);
    expect(response.status).toBe(404);
  });

  it('that works leaves the page as it is', async () => {
    const { status, text } = await page(ACTIVATION);
    expect(status).toBe(200);
    expect(text).not.toContain(de['notFound.text']);
  });

  it('an unknown name is a programming error', () => {
    expect(() => routeMiddleware('languag')).toThrow('Unknown route middleware');
    expect(() => routeMiddleware('toString')).toThrow('Unknown route middleware');
  });
});
