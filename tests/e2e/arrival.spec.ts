/**
 * The arrival rule (spec §4, §5) at every way into registration: an invitation that arrived
 * from a blocked site (a coupon site here) is refused on the landing page, on the form, in the
 * pop-up, at the social sign-in and by the register mutation — whichever page the visitor
 * posts from later. The deny page keeps the code and the full referrer aside, and tracks
 * landing_forbidden_referrer, only for a refusal the server made.
 */
import type { BrowserContext, Page, Request } from '@playwright/test';
import { createInvitation, registerPending } from './support/data.ts';
import { uniqueEmail } from './support/mail.ts';
import { dataLayerEvents, expect, plain, test, text, waitForHydration } from './support.ts';

const COUPON_SITE = 'https://www.mydealz.de/deals/velvet-rope-einladung-2291874?utm_source=share';
const DENIED_INVITATION_KEY = 'acq.deniedInvitation';

const deniedInvitation = (page: Page) =>
  page.evaluate((key) => JSON.parse(window.localStorage.getItem(key) ?? 'null') as unknown, DENIED_INVITATION_KEY);

/** Every first-party beacon's event names, across the tab's page loads. */
function beaconNames(page: Page) {
  const names: string[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/entrance/funnel') {
      names.push(...(JSON.parse(request.postData() ?? '{}') as { events: { name: string }[] }).events.map((e) => e.name));
    }
  });
  return names;
}

/** The same visitor opens the invitation again, in another tab, from the coupon site: refused. */
async function arriveFromCouponSite(context: BrowserContext, code: string) {
  const other = await context.newPage();
  await other.goto(`/?rc=${code}`, { referer: COUPON_SITE });
  await expect(other).toHaveURL(/\/registration\/deny\?reason=referrer/);
  await other.close();
}

async function expectRefused(page: Page, code: string) {
  await expect(page).toHaveURL(new RegExp(`/registration/deny\\?reason=referrer&rc=${code}$`));
  await expect(page.getByText(text('en', 'deny.lead.referrer'))).toBeVisible();
  await expect.poll(() => deniedInvitation(page)).toMatchObject({ registrationCode: code, referrer: COUPON_SITE });
}

test.describe('an invitation from a blocked site', () => {
  test('is refused on the form route too; the deny page keeps the code and the full referrer, and tracks the refusal once', async ({ page }) => {
    const invitation = await createInvitation();
    const beacons = beaconNames(page);
    await page.goto(`/registration/formstarted?rc=${invitation.code}`, { referer: COUPON_SITE });
    await expectRefused(page, invitation.code);
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing_forbidden_referrer']);
    const pushed = await page.evaluate(() => (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer.find((e) => e.event === 'landing_forbidden_referrer'));
    expect(pushed).toEqual({ event: 'landing_forbidden_referrer', referrerHost: 'www.mydealz.de' });
    await expect.poll(() => beacons).toContain('landing_forbidden_referrer');

    // A reload is not a second refusal. The barrier: the landing page, reached within the same
    // page load, sends its event after anything the deny page tracked (one queue per page load).
    await page.reload();
    await waitForHydration(page);
    await page.getByRole('link', { name: text('en', 'nav.home') }).click();
    await expect.poll(() => beacons).toContain('landing');
    expect(beacons).toEqual(['landing_forbidden_referrer', 'landing']);
  });

  test('a deny address made by hand keeps nothing aside and tracks nothing', async ({ page }) => {
    const invitation = await createInvitation();
    const beacons = beaconNames(page);
    await page.goto(`/registration/deny?reason=referrer&rc=${invitation.code}&from=evil.example`);
    await expect(page.getByText(text('en', 'deny.lead.referrer'))).toBeVisible();
    await waitForHydration(page);
    // The barrier: the landing page, reached within the same page load, sends its event after
    // anything the deny page tracked (one queue per page load).
    await page.getByRole('link', { name: text('en', 'nav.home') }).click();
    await expect.poll(() => beacons).toContain('landing');
    expect(beacons).toEqual(['landing']);
    expect(await deniedInvitation(page)).toBeNull();
  });

  test('is refused when the form is posted from another tab opened before: the pop-up, and the register mutation of lean step 2', async ({ page, context }) => {
    // The pop-up (landing page action).
    const viral = await createInvitation({ inviter: 'Noor', slug: 'viral' });
    const popupEmail = uniqueEmail('arrival-popup');
    await page.goto(`/viral?rc=${viral.code}`);
    await waitForHydration(page);
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    const dialog = page.getByRole('dialog', { name: text('en', 'registration.title') });
    await dialog.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
    await dialog.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Noor');
    await dialog.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Van den Berg');
    await dialog.getByLabel(text('en', 'registration.email')).fill(popupEmail);
    await dialog.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
    await arriveFromCouponSite(context, viral.code);
    await dialog.getByRole('button', { name: text('en', 'registration.submit') }).click();
    await expectRefused(page, viral.code);
    // Nothing was registered: the address is still new to the club.
    await registerPending(viral.code, { email: popupEmail });

    // Lean step 2 registers with the register mutation alone: the API refuses the referrer.
    const lean = await createInvitation({ inviter: 'Lena', slug: 'lean' });
    const leanEmail = uniqueEmail('arrival-lean');
    await page.goto(`/lean?rc=${lean.code}`);
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    // The form's page, not the landing page's waiting-list field of the same name.
    await expect(page.getByText(text('en', 'registration.step', { current: '1', total: '2' }))).toBeVisible();
    await page.getByLabel(text('en', 'registration.email')).fill(leanEmail);
    await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
    await page.getByRole('button', { name: text('en', 'registration.continue') }).click();
    await expect(page.getByText(text('en', 'registration.step', { current: '2', total: '2' }))).toBeVisible();
    await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
    await page.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Lena');
    await page.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Müller-Lüdenscheidt');
    await arriveFromCouponSite(context, lean.code);
    await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
    await expectRefused(page, lean.code);
    await registerPending(lean.code, { email: leanEmail });
  });

  test('never reaches the social sign-in provider', async ({ page }) => {
    const invitation = await createInvitation();
    await page.goto(`/auth/social/start?rc=${invitation.code}&lang=en`, { referer: COUPON_SITE });
    await expectRefused(page, invitation.code);
  });

  test('another invitation that arrives without a referrer is not refused for the first one', async ({ page }) => {
    const refused = await createInvitation({ inviter: 'Olga' });
    const welcome = await createInvitation({ inviter: 'Pia' });
    await page.goto(`/?rc=${refused.code}`, { referer: COUPON_SITE });
    await expectRefused(page, refused.code);
    await page.goto(`/registration/formstarted?rc=${welcome.code}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'registration.title'));
    // The refused one stays refused, even typed in by hand.
    await page.goto('/');
    await waitForHydration(page);
    await page.getByLabel(text('en', 'landing.code.label')).fill(refused.code);
    await page.getByRole('button', { name: text('en', 'landing.code.submit') }).click();
    await expect(page).toHaveURL(new RegExp(`/registration/deny\\?reason=referrer&rc=${refused.code}$`));
  });
});
