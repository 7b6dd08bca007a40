/**
 * The consent manager and the funnel (ADR 011) as a visitor meets them: nothing leaves for
 * the tag manager before consent; accepting flushes the queued events in order and loads it;
 * rejecting keeps events first-party; every choice is stored as a consent record.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page, Request } from '@playwright/test';
import { E2E } from '../../playwright.config.ts';
import { VIP, createInvitation, registerThroughForm } from './support/data.ts';
import { consentCookie, dataLayerEvents, expect, test, text } from './support.ts';

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** The product's database (read-only; WAL lets us read while the API writes). */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.resolve(E2E.dataDir, 'velvet.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

interface ConsentRow {
  action: string;
  source: string;
  analytics_granted: number;
  marketing_granted: number;
  version: number;
  language: string;
  country: string | null;
}

const consentRecords = (consentId: string) =>
  query<ConsentRow>(
    'select action, source, analytics_granted, marketing_granted, version, language, country from consent_records where consent_id = ? order by recorded_at',
    consentId,
  );

/** The consent id in the page's consent cookie, once there is one. */
async function consentId(page: Page): Promise<string | undefined> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'acq_consent');
  return cookie ? (JSON.parse(decodeURIComponent(cookie.value)) as { consentId: string }).consentId : undefined;
}

/** Every beacon the page sends to the first-party funnel, parsed. */
function funnelBeacons(page: Page) {
  const beacons: { sessionId: string; events: Record<string, unknown>[] }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/entrance/funnel') {
      beacons.push(JSON.parse(request.postData() ?? '{}') as (typeof beacons)[number]);
    }
  });
  return { beacons, names: () => beacons.flatMap((b) => b.events.map((e) => e.name as string)) };
}

const banner = (page: Page, locale: 'en' | 'de' = 'en') => page.getByRole('dialog', { name: text(locale, 'cmp.consent.label') });
const preferences = (page: Page) => page.getByRole('dialog', { name: text('en', 'cmp.preferences.title') });

test.describe('before a choice', () => {
  test.use({ consent: 'none' });

  test('nothing reaches the data layer or the tag manager; accepting flushes the queue in order and loads it', async ({ page, tagManager, invitation }) => {
    const funnel = funnelBeacons(page);
    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    await page.getByLabel(text('en', 'landing.code.label')).fill(invitation.code);
    // The first-party funnel already has both events (no personal data, a page-load id)…
    await expect.poll(() => funnel.names()).toEqual(['landing', 'code_entered']);
    expect(funnel.beacons[0]?.events[0]).toEqual({ name: 'landing', language: 'en', variant: 'default', analyticsConsent: false });
    // …the data layer has only the consent-mode defaults and the consent-manager data.
    expect(await dataLayerEvents(page)).toEqual([]);
    const before = await page.evaluate(() => JSON.parse(JSON.stringify(window.dataLayer)) as unknown[]);
    expect(before[0]).toEqual({ 0: 'consent', 1: 'default', 2: { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', wait_for_update: 500 } });
    expect(before[1]).toMatchObject({
      event: 'cmp_data',
      brand: 'VELVET_ROPE',
      language: 'EN',
      environment: 'WEB_browser',
      userConnectionStatus: 'Unidentified customer',
      optInTrackingConsent: true,
      hideOnStartup: false,
      readOnly: false,
      scriptAddress: expect.stringMatching(/\/entrance\/cmp\/js\/cmp_min\.js\?v=\d{10}$/),
    });
    expect(before).toHaveLength(2);
    expect(tagManager.requests).toEqual([]);

    await banner(page).getByRole('button', { name: text('en', 'cmp.acceptAll') }).click();
    await expect(banner(page)).toBeHidden();
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing', 'code_entered']);
    await expect.poll(() => tagManager.requests).toEqual([`${E2E.gtm.scriptUrl}?id=${E2E.gtm.containerId}`]);
    expect(await page.evaluate(() => (window as unknown as { __tagManagerStubRuns?: number }).__tagManagerStubRuns)).toBe(1);
    const after = await page.evaluate(() => JSON.parse(JSON.stringify(window.dataLayer)) as Record<string, unknown>[]);
    expect(after).toContainEqual({ 0: 'consent', 1: 'update', 2: { ad_storage: 'granted', analytics_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' } });

    // Later events go straight through.
    await page.getByRole('button', { name: text('en', 'landing.code.submit') }).click();
    await expect(page).toHaveURL(new RegExp(`rc=${invitation.code}`));
    await expect.poll(async () => (await dataLayerEvents(page)).slice(0, 3)).toEqual(['landing', 'code_entered', 'code_submitted']);

    // The choice is on record, with no personal data.
    const id = await consentId(page);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => consentRecords(id ?? '')).toEqual([
      { action: 'ACCEPT_ALL', source: 'BANNER', analytics_granted: 1, marketing_granted: 1, version: 1, language: 'en', country: 'DE' },
    ]);
  });

  test('rejecting keeps the events first-party: the funnel gets them, the data layer and the tag manager do not', async ({ page, tagManager }) => {
    const vip = await createInvitation(VIP);
    const funnel = funnelBeacons(page);
    await page.goto(`/de/vip?rc=${vip.code}`);
    await expect(banner(page, 'de')).toBeVisible();
    await banner(page, 'de').getByRole('button', { name: text('de', 'cmp.rejectAll') }).click();
    await expect(banner(page, 'de')).toBeHidden();
    await expect.poll(() => funnel.names()).toEqual(['landing']);
    expect(funnel.beacons[0]?.events[0]).toEqual({
      name: 'landing',
      language: 'de',
      variant: 'social-15-percent-mov',
      registrationCode: vip.code,
      landingSlug: 'vip',
      analyticsConsent: false,
    });

    // Stored first-party, without the code itself: the id of its registration code and the slug.
    const sessionId = funnel.beacons[0]?.sessionId ?? '';
    await expect.poll(() => query<{ event: string }>('select event from funnel_events where session_id = ?', sessionId).map((r) => r.event)).toEqual(['landing']);
    const [stored] = query<Record<string, unknown>>('select * from funnel_events where session_id = ?', sessionId);
    const [vipRow] = query<{ id: string }>('select id from registration_codes where code = ?', vip.code);
    expect(stored).toMatchObject({ language: 'de', landing_slug: 'vip', variant: 'social-15-percent-mov', registration_code_id: vipRow?.id, analytics_consent: 0 });
    expect(JSON.stringify(stored)).not.toContain(vip.code);

    const id = await consentId(page);
    await expect.poll(() => consentRecords(id ?? '')).toEqual([
      { action: 'REJECT_ALL', source: 'BANNER', analytics_granted: 0, marketing_granted: 0, version: 1, language: 'de', country: 'DE' },
    ]);
    expect(await dataLayerEvents(page)).toEqual([]);
    const updates = await page.evaluate(() => (window.dataLayer ?? []).filter((e: unknown) => (e as Record<string, unknown>)[1] === 'update').map((e: unknown) => JSON.parse(JSON.stringify(e)) as unknown));
    expect(updates).toEqual([{ 0: 'consent', 1: 'update', 2: { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' } }]);

    // The next page knows the choice: no banner, its event first-party only. (The page of a
    // pending registration: this visitor registers the same address twice.)
    const { email } = await registerThroughForm(page, vip.code, { prefix: '/de' });
    await registerThroughForm(page, vip.code, { prefix: '/de', email });
    await page.goto('/de/registration/registrationformemailpendingcomplete');
    await expect.poll(() => funnel.names()).toEqual(['landing', 'error_registration_account_pending']);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await dataLayerEvents(page)).toEqual([]);
    expect(tagManager.requests).toEqual([]);
  });

  test('the banner speaks the page’s language, in English and in German', async ({ page }) => {
    await page.goto('/de/about-us');
    const german = banner(page, 'de');
    await expect(german).toBeVisible();
    await expect(german).toContainText(text('de', 'cmp.consent.title'));
    for (const id of ['cmp.acceptAll', 'cmp.rejectAll', 'cmp.consent.preferences']) {
      await expect(german.getByRole('button', { name: text('de', id) })).toBeVisible();
    }
    await page.goto('/about-us');
    const english = banner(page);
    await expect(english.getByRole('button', { name: text('en', 'cmp.acceptAll') })).toBeVisible();
    await english.getByRole('button', { name: text('en', 'cmp.consent.preferences') }).click();
    await expect(preferences(page)).toBeVisible();
    await expect(preferences(page).getByRole('button', { name: text('en', 'cmp.marketing.title') })).toBeVisible();
  });

  test('is not loaded on activateaccount pages', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/entrance/cmp/')) scripts.push(request.url());
    });
    await page.goto('/de/registration/activateaccount?activationId=unknown-id');
    await expect(page).toHaveURL(/activateaccount/);
    await page.goto('/registration/activateaccountError?error=invalid');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('#cc-main')).toHaveCount(0);
    expect(scripts).toEqual([]);
    expect(await page.evaluate(() => 'AcqCmp' in window)).toBe(false);
  });

  test('is not shown in the app’s web view when the app passes its consent', async ({ page, tagManager, invitation }) => {
    const redirectUrl = encodeURIComponent(`${E2E.base}/done?redirect_uri=velvetrope://registered`);
    await page.goto(`/?rc=${invitation.code}&redirectUrl=${redirectUrl}&appConsent=analytics`);
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing']);
    await expect(banner(page)).toHaveCount(0);
    await expect.poll(() => tagManager.requests.length).toBe(1);
    const data = await page.evaluate(() => (window.dataLayer ?? []).find((e: unknown) => (e as Record<string, unknown>).event === 'cmp_data'));
    expect(data).toMatchObject({ environment: 'APP_webview', hideOnStartup: true, optInTrackingConsent: true });
    const id = await consentId(page);
    await expect.poll(() => consentRecords(id ?? '')).toEqual([
      { action: 'CUSTOM', source: 'APP', analytics_granted: 1, marketing_granted: 0, version: 1, language: 'en', country: 'DE' },
    ]);
  });

  test('the app’s web view known only by its native bridge says APP_webview in the consent-manager data', async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { VelvetAppBridge: object }).VelvetAppBridge = {};
    });
    await page.goto('/');
    await expect
      .poll(() => page.evaluate(() => (window.dataLayer ?? []).find((e: unknown) => (e as Record<string, unknown>).event === 'cmp_data')))
      .toMatchObject({ environment: 'APP_webview', brand: 'VELVET_ROPE', hideOnStartup: false });
  });

  test('a link cannot pass consent on the web', async ({ page, tagManager }) => {
    await page.goto('/?appConsent=analytics,marketing');
    await expect(banner(page)).toBeVisible();
    expect(await consentId(page)).toBeUndefined();
    expect(tagManager.requests).toEqual([]);
  });
});

test.describe('after a choice', () => {
  test('“Cookie settings” in the footer reopens the preference centre, also after client-side navigation', async ({ page, tagManager }) => {
    await page.goto('/');
    await expect(banner(page)).toHaveCount(0);
    await expect.poll(() => tagManager.requests).toHaveLength(1);
    await page.getByRole('contentinfo').getByRole('link', { name: text('en', 'footer.about') }).click();
    await expect(page).toHaveURL(/\/about-us$/);
    await page.getByRole('button', { name: text('en', 'footer.cookieSettings') }).click();
    await expect(preferences(page)).toBeVisible();
    // Withdraw marketing, keep analytics.
    await preferences(page).getByRole('checkbox', { name: text('en', 'cmp.marketing.title') }).uncheck({ force: true });
    await preferences(page).getByRole('button', { name: text('en', 'cmp.preferences.save') }).click();
    await expect(preferences(page)).toBeHidden();
    const updates = await page.evaluate(() => (window.dataLayer ?? []).filter((e: unknown) => (e as Record<string, unknown>)[1] === 'update').map((e: unknown) => JSON.parse(JSON.stringify(e)) as unknown));
    expect(updates.at(-1)).toEqual({ 0: 'consent', 1: 'update', 2: { ad_storage: 'denied', analytics_storage: 'granted', ad_user_data: 'denied', ad_personalization: 'denied' } });
    const id = await consentId(page);
    await expect.poll(() => consentRecords(id ?? '')).toEqual([
      { action: 'CUSTOM', source: 'PREFERENCES', analytics_granted: 1, marketing_granted: 0, version: 1, language: 'en', country: 'DE' },
    ]);
  });

  test('the admin funnel counts the first-party events and filters them', async ({ page, context }) => {
    // An Italian visit to the vip campaign, whatever the visitor chose.
    const vip = await createInvitation(VIP);
    await context.clearCookies();
    await context.addCookies([consentCookie('rejected')]);
    const funnel = funnelBeacons(page);
    await page.goto(`/it/vip?rc=${vip.code}`);
    await expect.poll(() => funnel.names()).toContain('landing');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.goto('/it/admin/funnel');
    await page.getByLabel(text('it', 'admin.login.email')).fill(E2E.admin.email);
    await page.getByLabel(text('it', 'admin.login.password')).fill(E2E.admin.password);
    await page.getByRole('button', { name: text('it', 'admin.login.submit') }).click();
    await expect(page).toHaveURL(/\/it\/admin\/funnel$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('it', 'admin.funnel.title'));
    await expect(page.getByRole('img', { name: text('it', 'admin.funnel.chart') })).toBeVisible();

    await page.getByRole('combobox', { name: text('it', 'admin.funnel.language') }).selectOption('it');
    await page.getByRole('combobox', { name: text('it', 'admin.funnel.link') }).selectOption({ label: `${vip.code} (/vip)` });
    await page.getByRole('button', { name: text('it', 'admin.funnel.apply') }).click();
    await expect(page).toHaveURL(/language=it/);
    const landing = page.getByTestId('funnel-row-landing');
    await expect(landing.getByRole('rowheader')).toHaveText(text('it', 'admin.funnel.event.landing'));
    await expect.poll(async () => Number(await landing.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('funnel-chart').locator('[data-event="landing"] text').last()).toContainText('100');

    await page.getByRole('combobox', { name: text('it', 'admin.funnel.country') }).selectOption('DE');
    await page.getByRole('combobox', { name: text('it', 'admin.funnel.variant') }).selectOption('social-15-percent-mov');
    await page.getByRole('button', { name: text('it', 'admin.funnel.apply') }).click();
    await expect(page).toHaveURL(/variant=social-15-percent-mov/);
    await expect.poll(async () => Number(await landing.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);
  });
});
