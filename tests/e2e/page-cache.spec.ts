/**
 * The page cache (ADR 039) as visitors meet it: anonymous public pages come from memory, yet
 * every response has its own CSP nonce (matching every script of the page), page-load id and
 * anonymous id; nothing one visitor brought (an invitation, a form they posted, their language
 * cookie) reaches another. That a flag changed with the CLI reaches the cached page is in
 * experiments.spec.ts, serial with the other test that changes a flag for everyone.
 *
 * These requests carry no X-Test-Now (pages on a test's calendar day are never cached): they
 * are made from request contexts of their own, as first visits without cookies.
 */
import { devices, request as playwrightRequest, type APIRequestContext, type APIResponse, type Response } from '@playwright/test';
import { E2E } from '../../playwright.config.ts';
import { createInvitation } from './support/data.ts';
import { expect, test, text, waitForHydration } from './support.ts';

const CACHE_HEADER = 'x-page-cache';

/** A visitor of their own: no cookies but those given, no test clock. */
function visitor(headers: Record<string, string> = {}): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: E2E.base, extraHTTPHeaders: headers });
}

/** The CSP's script nonce, every nonce attribute of the page, its page-load id and its anonymous id. */
async function anatomy(response: APIResponse) {
  const html = await response.text();
  const csp = response.headers()['content-security-policy'] ?? '';
  return {
    html,
    cache: response.headers()[CACHE_HEADER],
    cspNonce: /'nonce-([^']+)'/.exec(csp)?.[1],
    nonces: [...html.matchAll(/\bnonce="([^"]*)"/g)].map((m) => m[1]),
    sessionId: /<meta name="acq-session-id" content="([^"]+)"/.exec(html)?.[1],
    anonymousId: /acqAnonymousId[^0-9a-f]{0,40}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/.exec(html)?.[1],
  };
}

/** Requests `path` until a response comes from the cache (the first one, at most, renders it; a variation may need a few). */
async function cachedPage(context: APIRequestContext, path: string) {
  let last: Awaited<ReturnType<typeof anatomy>> | undefined;
  // How many requests it takes is chance (each draws its variation anew): a busy machine needs more than 5 s.
  await expect
    .poll(
      async () => {
        last = await anatomy(await context.get(path));
        return last.cache;
      },
      { timeout: 45_000 },
    )
    .toBe('hit');
  return last!;
}

test('a page from the cache has a fresh nonce that every one of its scripts carries, and ids of its own', async () => {
  const context = await visitor();
  const pages = [];
  for (let i = 0; i < 4; i++) pages.push(await cachedPage(context, '/de'));
  for (const page of pages) {
    expect(page.cspNonce).toBeTruthy();
    expect(page.nonces.length).toBeGreaterThan(3);
    expect(new Set(page.nonces)).toEqual(new Set([page.cspNonce]));
    expect(page.html).toContain(text('de', 'landing.code.label'));
  }
  for (const key of ['cspNonce', 'sessionId', 'anonymousId'] as const) {
    const values = pages.map((page) => page[key]);
    expect(values.every(Boolean), key).toBe(true);
    expect(new Set(values).size, key).toBe(pages.length);
  }
  await context.dispose();
});

test('an invitation, a posted form and a language cookie stay with the visitor who brought them', async () => {
  const invitation = await createInvitation({ inviter: 'Clementine' });
  const other = await visitor();
  await cachedPage(other, '/');

  // An invitation (?rc=) is rendered for its visitor alone.
  const invited = await visitor();
  const withCode = await anatomy(await invited.get(`/?rc=${invitation.code}`));
  expect(withCode.cache).toBe('bypass');
  expect(withCode.html).toContain('Clementine');
  // A form posted without JavaScript: its answer (and what was typed) is that visitor's.
  const typed = 'E2E-NOBODY-1234';
  const posted = await invited.post('/', { form: { intent: 'code', code: typed }, headers: { origin: E2E.base } });
  expect(posted.status()).toBe(200);
  expect(posted.headers()[CACHE_HEADER]).toBe('bypass');
  expect(await posted.text()).toContain(typed);
  // A language cookie: the unprefixed page in German, for the visitor who chose it.
  const german = await visitor({ cookie: 'lang=de' });
  const inGerman = await cachedPage(german, '/');
  expect(inGerman.html).toContain('<html lang="de"');

  for (let i = 0; i < 3; i++) {
    const page = await cachedPage(other, '/');
    expect(page.html).toContain('<html lang="en"');
    expect(page.html).not.toContain('Clementine');
    expect(page.html).not.toContain(invitation.code);
    expect(page.html).not.toContain(typed);
  }
  await Promise.all([other, invited, german].map((context) => context.dispose()));
});

test('a Polish visitor in Warsaw on a phone gets the page from the cache gzip-compressed, every script within the CSP, and it works', async ({ browser }) => {
  const invitation = await createInvitation({ inviter: 'Zofia' });
  // No X-Test-Now (the suite's default headers): pages on a test's calendar are never cached.
  const context = await browser.newContext({ ...devices['Pixel 7'], locale: 'pl-PL', timezoneId: 'Europe/Warsaw', extraHTTPHeaders: {} });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  // A first visit renders the page; a later one (in the same variation) comes from the cache, answered before
  // Express: gzip stitched from the stored runs (Express would compress with Brotli, which Chromium prefers).
  // Each cookieless visit draws its top-banner arm anew, so how many visits it takes to meet a stored arm is
  // chance (two or three, now and then more); on a busy machine a visit takes seconds, more than 5 s allow.
  let response: Response | null = null;
  await expect
    .poll(
      async () => {
        await context.clearCookies();
        response = await page.goto(`${E2E.base}/pl`);
        return `${response?.headers()[CACHE_HEADER]} ${response?.headers()['content-encoding']}`;
      },
      { timeout: 45_000 },
    )
    .toBe('hit gzip');
  const headers = response!.headers();
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  await waitForHydration(page);
  // The page's own scripts ran and load more as the visitor acts: a code opens the invitation.
  await page.getByRole('button', { name: text('pl', 'landing.code.submit') }).click();
  await expect(page.getByText(text('pl', 'validation.accessCodeMissing'))).toBeVisible();
  await page.getByLabel(text('pl', 'landing.code.label')).fill(invitation.code);
  await page.getByRole('button', { name: text('pl', 'landing.code.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`/pl\\?rc=${invitation.code}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Zofia');
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  await context.close();
});
