/**
 * Error reports (ADR 013) leave the product scrubbed: a real uncaught error in a page and a
 * real API outage on the server reach a local error-reporting service (the collector of
 * playwright.config.ts), and no personal field survives on the way.
 */
import { randomUUID } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { E2E } from '../../playwright.config.ts';
import { createInvitation } from './support/data.ts';
import { QUIET_DAY, TEST_NOW_HEADER, text, waitForHydration } from './support.ts';

interface Received {
  receivedAt: string;
  path: string;
  body: string;
}

async function reports(since: string): Promise<Received[]> {
  const all = (await (await fetch(`${E2E.errors.collector}/reports`)).json()) as Received[];
  return all.filter((r) => r.receivedAt >= since);
}

// A day of no promotion (ADR 021): the top banner shows its A/B copy, whatever day the suite runs.
test.use({ extraHTTPHeaders: { [TEST_NOW_HEADER]: QUIET_DAY } });

const PERSONAL = { firstName: 'Jannike', lastName: 'Doerfler', postalCode: '80331', bday: '1990-04-01' };

test('an uncaught error in the page is reported through our host, without personal data', async ({ page }) => {
  const since = new Date().toISOString();
  const marker = `e2e-${randomUUID()}`;
  const email = `jannike.${randomUUID().slice(0, 8)}@example.com`;
  const { code } = await createInvitation();
  const query = new URLSearchParams({ ...PERSONAL, email, rc: code }).toString();
  const sent = page.waitForRequest((r) => r.url() === `${E2E.base}/error-reports` && r.method() === 'POST');
  await page.goto(`/?${query}`);
  await page.evaluate(
    ([m, e]) => {
      const form = { firstName: 'Jannike', email: e, card: { number: '4111 1111 1111 1111', cvc: '737' } };
      setTimeout(() => {
        throw new Error(`${m}: could not save ${JSON.stringify(form)} for ${e}`);
      });
    },
    [marker, email],
  );
  await sent;
  let found: Received | undefined;
  await expect.poll(async () => (found = (await reports(since)).find((r) => r.body.includes(marker)))).toBeDefined();
  const body = found!.body;
  for (const value of [PERSONAL.firstName, PERSONAL.lastName, PERSONAL.bday, email, email.split('@')[0]!, '4111 1111 1111 1111']) expect(body, value).not.toContain(value);
  // Short values can occur by chance in a random id, a clock reading or a stack's line number: they are looked for beside their field's name.
  for (const pattern of [/cvc\W{1,8}737/i, new RegExp(`postalCode\\W{1,8}${PERSONAL.postalCode}`, 'i')]) expect(body, String(pattern)).not.toMatch(pattern);
  const report = JSON.parse(body) as { platform: string; logger: string; transaction: string; tags: Record<string, string>; exception: { values: { value: string }[] } };
  expect(report).toMatchObject({ platform: 'javascript', logger: 'browser', tags: { source: 'browser', handler: 'onerror' } });
  expect(report.transaction).toContain('firstName=[Filtered]');
  // The invitation code is no personal data: it stays, so the report shows which invitation failed.
  expect(report.transaction).toContain(`rc=${code}`);
  expect(report.exception.values[0]!.value).toContain('"firstName":"[Filtered]"');
});

test('a GraphQL call that fails on the server goes to the application-level hook and is reported without the address', async ({ page }) => {
  const since = new Date().toISOString();
  const email = `jannike.${randomUUID().slice(0, 8)}@example.com`;
  await page.goto(`${E2E.down}/membership-interest/apply`);
  await page.getByLabel(text('en', 'membershipInterestApply.email')).fill(email);
  await page.getByRole('button', { name: text('en', 'membershipInterestApply.submit') }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  let found: Received | undefined;
  await expect
    .poll(async () => (found = (await reports(since)).find((r) => r.body.includes('"operation":"applyForMembership"'))), { timeout: 10_000 })
    .toBeDefined();
  expect(found!.body).not.toContain(email);
  expect(found!.body).not.toContain(email.split('@')[0]!);
  const report = JSON.parse(found!.body) as { logger: string; level: string; tags: Record<string, string>; extra: { variables: Record<string, unknown> } };
  expect(report).toMatchObject({ logger: 'web', level: 'warning', tags: { api: 'connection', operation: 'applyForMembership' } });
  expect(JSON.stringify(report.extra.variables)).toContain('[Filtered]');
});

test('when the features cannot be loaded, "Failed to initialize Growthbook:" is logged and reported, and the page keeps what it rendered', async ({ page }) => {
  const since = new Date().toISOString();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.clock.install({ time: QUIET_DAY });
  await page.route('**/api/features/**', (route) => route.abort('connectionrefused'));
  await page.goto('/?top-banner-copy=1&firstName=Jannike');
  await expect.poll(() => errors.some((e) => e.startsWith('Failed to initialize Growthbook:'))).toBe(true);
  await expect(page.getByTestId('top-banner')).toHaveText(text('en', 'banner.topMembersFirst'));
  let found: Received | undefined;
  await expect.poll(async () => (found = (await reports(since)).find((r) => r.body.includes('Failed to initialize Growthbook:')))).toBeDefined();
  expect(found!.body).not.toContain('Jannike');
  expect(JSON.parse(found!.body)).toMatchObject({ logger: 'browser', tags: { area: 'experiments' } });
});

test('an error while the visitor is offline costs the page nothing, and the next one, back online, is reported', async ({ page, context }) => {
  const since = new Date().toISOString();
  const offline = `e2e-offline-${randomUUID()}`;
  const online = `e2e-online-${randomUUID()}`;
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('/de/about-us');
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  // The reporter is loaded with the page's first error: offline, that load fails.
  const failedLoad = page.waitForEvent('requestfailed', (request) => request.url().includes('/assets/error-reporter'));
  await page.evaluate((message) => void setTimeout(() => { throw new Error(message); }), offline);
  await failedLoad;
  await context.setOffline(false);
  await page.evaluate((message) => void setTimeout(() => { throw new Error(message); }), online);
  let found: Received | undefined;
  await expect.poll(async () => (found = (await reports(since)).find((r) => r.body.includes(online)))).toBeDefined();
  expect(JSON.parse(found!.body)).toMatchObject({ logger: 'browser', tags: { handler: 'onerror' } });
  // The two errors the test threw, and nothing the reporter did about the failed load.
  expect(pageErrors).toEqual([offline, online]);
});
