/**
 * The calls of spec §7 and the cookies of §9, as the API and the browser see them (ADR 022):
 * one X-Session-ID per page load on every call of it — the web server's calls for the
 * document, the `.data` requests of later navigations and submissions, graphql-ws — with the
 * page's path as X-Source-Page; Bearer auth in connection_init; the acquisition defaults'
 * GraphQL address before the first socket; the auth token cookie; the 365-day locale cookie.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { E2E } from '../../playwright.config.ts';
import { createInvitation, graphql, registerPending } from './support/data.ts';
import { activationLink, uniqueEmail, waitForMail } from './support/mail.ts';
import { expect, plain, test, text, waitForHydration } from './support.ts';
import type { LoggedOperation } from '../../apps/api/src/dev-request-log.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DAY_MS = 86_400_000;

/** What the API recorded of one operation (its dev request log). */
type ApiCall = LoggedOperation;

async function apiCalls(sessionId: string): Promise<ApiCall[]> {
  const response = await fetch(`${E2E.api}/dev/requests?sessionId=${sessionId}`);
  return ((await response.json()) as { operations: ApiCall[] }).operations;
}

/** The page load's id, as the server wrote it into a document whose loaders called the API with it. */
async function pageLoadId(page: Page): Promise<string> {
  const id = await page.locator('meta[name="acq-session-id"]').getAttribute('content');
  if (!id) throw new Error('no page-load id in the document');
  return id;
}

interface Socket {
  url: string;
  sent: string[];
}

/** Every websocket the page opens, with the frames it sends. */
function watchSockets(page: Page): Socket[] {
  const sockets: Socket[] = [];
  page.on('websocket', (ws) => {
    const socket: Socket = { url: ws.url(), sent: [] };
    ws.on('framesent', (frame) => socket.sent.push(String(frame.payload)));
    sockets.push(socket);
  });
  return sockets;
}

/** graphql-ws's connection_init payload of a socket, once it was sent. */
async function connectionInit(socket: () => Socket | undefined): Promise<{ headers: Record<string, string> }> {
  await expect.poll(() => socket()?.sent.length ?? 0).toBeGreaterThan(0);
  const init = JSON.parse(socket()!.sent[0]!) as { type: string; payload: { headers: Record<string, string> } };
  expect(init.type).toBe('connection_init');
  return init.payload;
}

/** From the landing page of an invitation to the verify-email page, in one page load. */
async function registerThroughTheForm(page: Page, locale: Locale, code: string, email: string) {
  const prefix = locale === 'en' ? '' : `/${locale}`;
  await page.goto(`${prefix || '/'}?rc=${code}`);
  await waitForHydration(page);
  await page.getByRole('link', { name: text(locale, 'signup.email') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale, 'registration.title'));
  await page.getByLabel(text(locale, 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text(locale, 'registration.firstName'), { exact: true }).fill('Zoë');
  await page.getByLabel(text(locale, 'registration.lastName'), { exact: true }).fill('Łukasiewicz-Öström');
  await page.getByLabel(text(locale, 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain(locale, 'registration.terms') }).check();
  await page.getByRole('button', { name: text(locale, 'registration.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`^${E2E.base}${prefix}/registration/formfinished$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale, 'formFinished.title'));
}

async function viewer(token: string): Promise<{ customerId: string; saltedHashedCustomerId: string } | null> {
  const response = await fetch(`${E2E.api}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ viewer { customerId saltedHashedCustomerId } }' }),
  });
  return ((await response.json()) as { data: { viewer: { customerId: string; saltedHashedCustomerId: string } | null } }).data.viewer;
}

async function authCookie(context: BrowserContext) {
  return (await context.cookies(E2E.base)).find((c) => c.name === 'acq_token');
}

test.describe('X-Session-ID and X-Source-Page (spec §7.2)', () => {
  test('one id for every call of a page load, from the document to the websocket; the next page load has its own', async ({ page }) => {
    const { code } = await createInvitation({ inviter: 'Zoë' });
    const dataRequests: { path: string; sessionId: string | undefined }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('.data')) dataRequests.push({ path: url.pathname, sessionId: request.headers()['x-session-id'] });
    });
    const sockets = watchSockets(page);

    await registerThroughTheForm(page, 'de', code, uniqueEmail('page-load'));
    const sessionId = await pageLoadId(page);
    expect(sessionId).toMatch(UUID);

    // The browser sent the id back with every request of the page load, and the id in the page never changed.
    expect(dataRequests.length).toBeGreaterThanOrEqual(2);
    expect(dataRequests.filter((r) => r.sessionId !== sessionId)).toEqual([]);

    // connection_init carries the ids (a browser cannot set headers on a websocket).
    const init = await connectionInit(() => sockets[0]);
    expect(init.headers).toMatchObject({ 'X-Session-ID': sessionId, 'X-Source-Page': '/de/registration/formfinished' });
    expect(init.headers['X-Correlation-ID']).toMatch(/^acq-web-[0-9a-f-]{36}$/);
    expect(init.headers).not.toHaveProperty('Authorization');

    // What the API received: the document's check, the form's calls, the verify-email page's, the socket's.
    await expect.poll(async () => (await apiCalls(sessionId)).some((c) => c.transport === 'ws')).toBe(true);
    const calls = await apiCalls(sessionId);
    expect(calls.map((c) => [c.transport, c.operationName, c.sourcePage])).toEqual(
      expect.arrayContaining([
        ['http', 'checkRegistrationCode', '/de'],
        ['http', 'checkRegistrationCode', '/de/registration/formstarted'],
        ['http', 'register', '/de/registration/formstarted'],
        ['http', 'registrationStatusSnapshot', '/de/registration/formfinished'],
        ['ws', 'registrationStatus', '/de/registration/formfinished'],
      ]),
    );
    for (const call of calls) {
      expect(call.sourcePage).toMatch(/^\/de(\/|$)/);
      expect(call.sourcePage).not.toMatch(/\.data$|^\/entrance/);
      expect(call.correlationId).toMatch(/^acq-web-[0-9a-f-]{36}$/);
    }
    expect(new Set(calls.map((c) => c.correlationId)).size).toBe(calls.length);

    // A new page load is a new session id, for the document's calls and its socket.
    await page.reload();
    await waitForHydration(page);
    const next = await pageLoadId(page);
    expect(next).toMatch(UUID);
    expect(next).not.toBe(sessionId);
    await expect.poll(async () => (await apiCalls(next)).map((c) => [c.transport, c.operationName, c.sourcePage])).toEqual([
      ['http', 'registrationStatusSnapshot', '/de/registration/formfinished'],
      ['ws', 'registrationStatus', '/de/registration/formfinished'],
    ]);
  });

  test.describe('without a stored consent choice', () => {
    test.use({ consent: 'none' });

    test('the consent record reaches the API with the page load’s id and the page’s path, not /entrance', async ({ page }) => {
      await page.goto('/fr/about-us');
      await waitForHydration(page);
      // A page without API calls of its own names no id (a shared cache may hold it, ADR 053): the browser minted one.
      await expect(page.locator('meta[name="acq-session-id"]')).toHaveCount(0);
      const consentPost = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/entrance/cmp/consent');
      await page.getByRole('button', { name: text('fr', 'cmp.acceptAll') }).click();
      const sessionId = (await consentPost).headers()['x-session-id'];
      expect(sessionId).toMatch(UUID);
      await expect.poll(async () => (await apiCalls(sessionId!)).map((c) => [c.operationName, c.sourcePage])).toContainEqual(['recordConsent', '/fr/about-us']);
    });
  });
});

test.describe('an invitation’s page a shared cache may keep (ADR 053)', () => {
  // A first visit as it comes through a cache in front: no cookie, the server's own clock, the bucket the cache drew.
  test.use({ consent: 'none', calendar: '', extraHTTPHeaders: { 'x-experiment-bucket': '3f' } });

  test('opened without cookies it is the same for everyone; the browser mints the page load’s id and the form’s calls carry it', async ({ page }) => {
    const { code } = await createInvitation({ inviter: 'Zoë' });
    const dataRequests: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.data')) dataRequests.push(request.headers()['x-session-id']);
    });
    const documentAnswer = page.waitForResponse((response) => response.request().resourceType() === 'document');
    await page.goto(`/pl?rc=${code}`);
    expect((await documentAnswer).headers()['cache-control']).toMatch(/^public, .*s-maxage=\d+/);
    await waitForHydration(page);
    // Nothing of this visitor in the page: no page-load id of the server's.
    await expect(page.locator('meta[name="acq-session-id"]')).toHaveCount(0);
    await page.getByRole('button', { name: text('pl', 'cmp.acceptAll') }).click();
    await page.getByRole('link', { name: text('pl', 'signup.email') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'registration.title'));
    const [minted] = dataRequests;
    expect(minted).toMatch(UUID);
    expect(new Set(dataRequests)).toEqual(new Set([minted]));
    // The form's own check is this visitor's call, under the id the browser minted.
    await expect.poll(async () => (await apiCalls(minted!)).map((c) => [c.operationName, c.sourcePage])).toContainEqual(['checkRegistrationCode', '/pl/registration/formstarted']);
  });
  test('every call of the page load carries the id the browser minted and its page: consent, proof-of-work challenge, form, funnel (issue 20 §3)', async ({ page }) => {
    const { code } = await createInvitation({ inviter: 'Zoë' });
    const sent: { path: string; sessionId: string | undefined; sourcePage: string | undefined }[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.data') || pathname === '/form-challenge' || pathname.startsWith('/entrance/cmp/consent')) {
        sent.push({ path: pathname, sessionId: request.headers()['x-session-id'], sourcePage: request.headers()['x-source-page'] });
      }
    });
    await page.goto(`/pl?rc=${code}`);
    await waitForHydration(page);
    await expect(page.locator('meta[name="acq-session-id"]')).toHaveCount(0);
    await page.getByRole('button', { name: text('pl', 'cmp.acceptAll') }).click();
    await page.getByRole('link', { name: text('pl', 'signup.email') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'registration.title'));
    await page.getByLabel(text('pl', 'registration.gender.female'), { exact: true }).check();
    await page.getByLabel(text('pl', 'registration.firstName'), { exact: true }).fill('Zoë');
    await page.getByLabel(text('pl', 'registration.lastName'), { exact: true }).fill('Łukasiewicz');
    await page.getByLabel(text('pl', 'registration.email')).fill(uniqueEmail('one-id'));
    await page.getByRole('checkbox', { name: plain('pl', 'registration.terms') }).check();
    await page.getByRole('button', { name: text('pl', 'registration.submit') }).click();
    await expect(page).toHaveURL(new RegExp(`^${E2E.base}/pl/registration/formfinished$`));

    const minted = sent[0]?.sessionId;
    expect(minted).toMatch(UUID);
    expect(sent.filter((r) => r.sessionId !== minted)).toEqual([]);
    expect(sent.find((r) => r.path === '/form-challenge')?.sourcePage).toBe('/pl/registration/formstarted');
    // What the API heard under that one id: each call named the page it served, never /form-challenge or /entrance.
    await expect
      .poll(async () => (await apiCalls(minted!)).map((c) => [c.operationName, c.sourcePage]))
      .toEqual(
        expect.arrayContaining([
          ['recordConsent', '/pl'],
          ['proofOfWorkChallenge', '/pl/registration/formstarted'],
          ['register', '/pl/registration/formstarted'],
          ['recordFunnelEvents', expect.stringMatching(/^\/pl(\/|$)/)],
        ]),
      );
    for (const call of await apiCalls(minted!)) expect(call.sourcePage).not.toMatch(/^\/(form-challenge|entrance)|\.data$/);
  });
});

test.describe('the websocket (spec §7.1, §7.5)', () => {
  test('opens at the acquisition defaults’ GraphQL address, never first at the server-rendered one', async ({ page }) => {
    const { code } = await createInvitation();
    const sockets = watchSockets(page);
    await registerThroughTheForm(page, 'en', code, uniqueEmail('override'));
    await connectionInit(() => sockets[0]);
    // A fresh page load of the verify-email page: its socket waits for /acquisition-defaults.json.
    await page.reload();
    await expect.poll(() => sockets.length).toBe(2);
    await connectionInit(() => sockets[1]);
    const expected = E2E.browserGraphql.replace(/^http/, 'ws');
    expect(sockets.map((s) => s.url)).toEqual([expected, expected]);
  });

  test('an identified visitor’s connection_init carries Bearer auth the API accepts', async ({ page, context }) => {
    const { code } = await createInvitation({ balance: 3 });
    // A member of this browser, activated through the API (activateAccount issues the member token).
    const member = await registerPending(code);
    const [mail] = await waitForMail(member.email);
    const activationId = new URL(activationLink(mail!)).searchParams.get('activationId');
    const { activateAccount } = await graphql<{ activateAccount: { memberToken: string | null; memberId: string } }>(
      'mutation ($id: String!) { activateAccount(activationId: $id) { memberToken memberId } }',
      { id: activationId },
    );
    expect(activateAccount.memberToken).toBeTruthy();
    await context.addCookies([{ name: 'acq_token', value: activateAccount.memberToken!, url: E2E.base, httpOnly: true, secure: true, sameSite: 'Lax' }]);

    const sockets = watchSockets(page);
    await registerThroughTheForm(page, 'en', code, uniqueEmail('friend'));
    const init = await connectionInit(() => sockets[0]);
    const bearer = /^Bearer (\S+)$/.exec(init.headers.Authorization ?? '')?.[1];
    expect(bearer).toBeTruthy();
    // The page's copy is not the cookie's 7-day token, and it identifies the same customer.
    expect(bearer).not.toBe(activateAccount.memberToken);
    expect((await viewer(bearer!))?.customerId).toBe(activateAccount.memberId);
    const sessionId = await pageLoadId(page);
    await expect.poll(async () => (await apiCalls(sessionId)).filter((c) => c.transport === 'ws').map((c) => c.bearer)).toEqual([true]);
  });
});

test.describe('cookies of spec §9', () => {
  test('activation makes the visitor an identified customer: the auth token cookie, then the consent data', async ({ page, context }) => {
    const { code } = await createInvitation();
    const member = await registerPending(code, { firstName: 'Zoë' });
    const [mail] = await waitForMail(member.email);
    expect(await authCookie(context)).toBeUndefined();

    await page.goto(activationLink(mail!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.welcomeTitle', { firstName: 'Zoë' }));
    const cookie = await authCookie(context);
    expect(cookie).toMatchObject({ path: '/', secure: true, sameSite: 'Lax', httpOnly: true });
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000);
    expect(cookie!.expires * 1000 - Date.now()).toBeLessThanOrEqual(7 * DAY_MS);
    const customer = await viewer(cookie!.value);
    expect(customer?.customerId).toMatch(UUID);

    // The next page says so to the consent manager (spec §3, §6).
    // The consent manager is its own deferred script: its data arrives when it has run, not at hydration.
    await page.goto('/about-us');
    const cmpData = () =>
      page.evaluate(() =>
        ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).find((e): e is Record<string, unknown> => typeof e === 'object' && e !== null && (e as { event?: unknown }).event === 'cmp_data'),
      );
    await expect.poll(cmpData).toMatchObject({
      userConnectionStatus: 'Identified customer',
      customerId: customer!.customerId,
      saltedHashedCustomerId: customer!.saltedHashedCustomerId,
    });
  });

  test('a language chosen in the footer is kept 365 days in the locale cookie, and outranks the last prefixed page', async ({ page, context }) => {
    await page.goto('/about-us');
    await waitForHydration(page);
    await page.getByRole('link', { name: 'Deutsch' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const locale = (await context.cookies(E2E.base)).find((c) => c.name === 'locale');
    expect(locale).toMatchObject({ value: 'de', path: '/', sameSite: 'Lax', httpOnly: false });
    expect(locale!.expires * 1000 - Date.now()).toBeGreaterThan(365 * DAY_MS - 60_000);
    expect(locale!.expires * 1000 - Date.now()).toBeLessThanOrEqual(365 * DAY_MS);

    // A French page opened later (an email's link) sets lang=fr; the chosen German still wins.
    await page.goto('/fr/about-us');
    await page.goto('/about-us');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  });
});
