/**
 * The registration funnel of spec §4 across whole journeys: each page's data layer, the
 * first-party funnel's beacons from every page load in the order they left the browser, and
 * the rows the API stored for them (ADR 011). The order is the spec's: landing; entering a code;
 * submitting a code; submitting an e-mail; landing on step 2; submitting step 2; landing on the
 * welcome page (the page after the form: verify email, or "check your inbox"); landing on the
 * activate-account page; successful registration.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page, Request } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { FUNNEL_STEPS } from '@velvet/validation/funnel';
import { E2E } from '../../playwright.config.ts';
import { createInvitation } from './support/data.ts';
import { activationLink, uniqueEmail, waitForMail } from './support/mail.ts';
import { dataLayerEvents, expect, plain, test, text, waitForHydration } from './support.ts';

/** The product's database, read-only (WAL lets us read while the API writes). */
function storedEvents(sessionId: string): string[] {
  const db = new Database(path.resolve(E2E.dataDir, 'velvet.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select event from funnel_events where session_id = ?').all(sessionId) as { event: string }[]).map((r) => r.event).sort();
  } finally {
    db.close();
  }
}

/** Every first-party beacon of the tab, across its page loads, in the order they were sent. */
function funnelBeacons(page: Page) {
  const beacons: { sessionId: string; events: { name: string }[] }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/entrance/funnel') {
      beacons.push(JSON.parse(request.postData() ?? '{}') as (typeof beacons)[number]);
    }
  });
  return {
    names: () => beacons.flatMap((b) => b.events.map((e) => e.name)),
    /** Per page load (session), the event names it sent, sorted. */
    sessions: () => {
      const bySession = new Map<string, string[]>();
      for (const beacon of beacons) bySession.set(beacon.sessionId, [...(bySession.get(beacon.sessionId) ?? []), ...beacon.events.map((e) => e.name)]);
      return [...bySession].map(([sessionId, names]) => ({ sessionId, names: names.sort() }));
    },
  };
}

/** The events a journey without step 2 goes through, in the spec's order. */
const ONE_STEP = FUNNEL_STEPS.filter((step) => step !== 'step2_landed' && step !== 'step2_submitted');

/** The data layer's events with their fields (funnel steps only). */
function dataLayerDetails(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(() =>
    ((window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []).filter(
      (e) => e && typeof e.event === 'string' && !['cmp_data', 'assign_experiment'].includes(e.event) && !e.event.startsWith('gtm.'),
    ),
  );
}

async function fillNames(page: Pick<Page, 'getByLabel'>, locale: Locale, firstName: string, lastName: string) {
  await page.getByLabel(text(locale, 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text(locale, 'registration.firstName'), { exact: true }).fill(firstName);
  await page.getByLabel(text(locale, 'registration.lastName'), { exact: true }).fill(lastName);
}

async function fillEmailAndConsent(page: Pick<Page, 'getByLabel' | 'getByRole'>, locale: Locale, email: string) {
  await page.getByLabel(text(locale, 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain(locale, 'registration.terms') }).check();
}

/** Opens the emailed activation link in the same tab; the account is then active. */
async function activate(page: Page, email: string, firstName: string) {
  const [mail] = await waitForMail(email);
  await page.goto(activationLink(mail!));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.welcomeTitle', { firstName }));
}

test.describe('the funnel in the order of spec §4', () => {
  test('one step: the welcome page comes before the activate-account page, successful registration last — in the data layer, the beacons and the stored funnel', async ({ page }) => {
    const invitation = await createInvitation({ inviter: 'Margot' });
    const email = uniqueEmail('funnel-order');
    const funnel = funnelBeacons(page);

    await page.goto('/');
    await waitForHydration(page);
    await page.getByLabel(text('en', 'landing.code.label')).fill(invitation.code);
    await page.getByRole('button', { name: text('en', 'landing.code.submit') }).click();
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    await fillNames(page, 'en', 'Zoë', 'Łukasiewicz-Öström');
    await fillEmailAndConsent(page, 'en', email);
    await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'formFinished.title'));
    // The verify-email page is the welcome page of the funnel: its event follows the email's.
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing', 'code_entered', 'code_submitted', 'email_submitted', 'welcome_landed']);
    await expect.poll(() => funnel.names()).toContain('welcome_landed');

    await activate(page, email, 'Zoë');
    await expect.poll(() => dataLayerEvents(page)).toEqual(['activate_account_landed', 'registration_success']);

    // Across both page loads, the first-party funnel saw the journey in the spec's order…
    await expect.poll(() => funnel.names()).toEqual(ONE_STEP);
    // …and stored every event of each page load.
    const sessions = funnel.sessions();
    expect(sessions).toHaveLength(2);
    for (const { sessionId, names } of sessions) {
      await expect.poll(() => storedEvents(sessionId)).toEqual(names);
    }
  });

  test('lean: step 2 between the email and the welcome page, with the flow values leanStep1 and leanStep2', async ({ page }) => {
    const invitation = await createInvitation({ inviter: 'Ines', slug: 'lean' });
    const email = uniqueEmail('funnel-lean');
    const funnel = funnelBeacons(page);

    await page.goto(`/lean?rc=${invitation.code}`);
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    await expect(page.getByText(text('en', 'registration.step', { current: '1', total: '2' }))).toBeVisible();
    await waitForHydration(page);
    await fillEmailAndConsent(page, 'en', email);
    await page.getByRole('button', { name: text('en', 'registration.continue') }).click();
    await expect(page.getByText(text('en', 'registration.step', { current: '2', total: '2' }))).toBeVisible();
    await fillNames(page, 'en', 'Ines', 'Brückner');
    await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'formFinished.title'));
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing', 'email_submitted', 'step2_landed', 'step2_submitted', 'welcome_landed']);
    const events = await dataLayerDetails(page);
    expect(events.find((e) => e.event === 'email_submitted')).toMatchObject({ flow: 'leanStep1' });
    expect(events.find((e) => e.event === 'step2_landed')).toEqual({ event: 'step2_landed', flow: 'leanStep2' });
    expect(events.find((e) => e.event === 'step2_submitted')).toEqual({ event: 'step2_submitted', flow: 'leanStep2' });
    await expect.poll(() => funnel.names()).toContain('welcome_landed');

    await activate(page, email, 'Ines');
    await expect.poll(() => funnel.names()).toEqual(FUNNEL_STEPS.filter((step) => step !== 'code_entered' && step !== 'code_submitted'));
  });

  test('the pop-up: "check your inbox" is the welcome page, after the email and before activation', async ({ page }) => {
    const invitation = await createInvitation({ inviter: 'Vera', slug: 'viral' });
    const email = uniqueEmail('funnel-popup');
    await page.goto(`/viral?rc=${invitation.code}`);
    await waitForHydration(page);
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    const dialog = page.getByRole('dialog', { name: text('en', 'registration.title') });
    await fillNames(dialog, 'en', 'Vera', 'Ødegård');
    await fillEmailAndConsent(dialog, 'en', email);
    await dialog.getByRole('button', { name: text('en', 'registration.submit') }).click();
    await expect(page.getByRole('dialog', { name: text('en', 'formFinished.popupTitle') })).toBeVisible();
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing', 'email_submitted', 'welcome_landed']);
    await activate(page, email, 'Vera');
    await expect.poll(() => dataLayerEvents(page)).toEqual(['activate_account_landed', 'registration_success']);
  });
});

test('social sign-up with a verified address: no activation page — the second step, the welcome page, then successful registration', async ({ page }) => {
  const invitation = await createInvitation({ inviter: 'Ada' });
  const login = `verified+named-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`;
  await page.goto(`/?rc=${invitation.code}`);
  await page.getByRole('link', { name: text('en', 'signup.google') }).click();
  // The test provider's own sign-in and consent pages (tests/e2e/support/oidc-provider.ts).
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password will do');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'socialSecondStep.title'));
  await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
  await page.getByRole('checkbox', { name: text('en', 'socialSecondStep.preference.WOMEN'), exact: true }).check();
  await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('en', 'socialSecondStep.submit') }).click();
  await expect(page.getByTestId('voucher-code')).toBeVisible();
  await expect.poll(() => dataLayerEvents(page)).toEqual(['email_submitted', 'step2_landed', 'step2_submitted', 'welcome_landed', 'registration_success']);
  const events = await dataLayerDetails(page);
  expect(events.filter((e) => 'flow' in e).map((e) => e.flow)).toEqual(['socialRegistration', 'socialRegistration', 'socialRegistration']);
});
