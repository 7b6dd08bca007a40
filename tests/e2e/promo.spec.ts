/**
 * The promo calendar, walked on a fixed clock (ADR 021): the server renders each page for the
 * instant a test names (X-Test-Now) and the browser's clock starts there, paused (Playwright's
 * clock API), so the countdown is exact to the second. Days are Berlin days; the visitor here
 * lives in Lisbon, an hour behind, and still sees the club's calendar.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { TEST_NOW_HEADER, expect, pauseBrowserClock, test, text, waitForHydration } from './support.ts';

test.use({ timezoneId: 'Europe/Lisbon' });

/** Instants in Berlin's winter time (UTC+1). */
const BERLIN = (local: string) => `${local}+01:00`;
const MINUTE = 60_000;

/** Either copy of the standing promise (the top-banner-copy A/B test decides which). */
const STANDING_PROMISE = new RegExp(`^(${[text('en', 'banner.top'), text('en', 'banner.topMembersFirst')].map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);

/**
 * Loads `path` as the server renders it at `instant`, with the page's clock at the same instant.
 * Returns once the page has set up its feature flags: that set-up races its request against a
 * 5-second timer of the page's (fake) clock, and the features stream opens only when the request
 * has won; moving time on before would time it out.
 */
async function openAt(page: Page, path: string, instant: string) {
  await page.setExtraHTTPHeaders({ [TEST_NOW_HEADER]: instant });
  await page.clock.pauseAt(new Date(instant));
  const featuresSettled = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/sub/'));
  await page.goto(path);
  await waitForHydration(page);
  await featuresSettled;
}

function banner(page: Page) {
  return { line: page.getByTestId('top-banner'), promo: page.getByTestId('promo'), timer: page.getByRole('timer') };
}

/** The countdown as it reads, and as a screen reader names it. */
async function expectCountdown(page: Page, locale: Locale, promo: string, short: string, long: string) {
  const { promo: name, timer } = banner(page);
  await expect(name).toHaveText(text(locale, `promo.${promo}`));
  await expect(timer).toHaveText(text(locale, 'promo.endsIn', { time: short }));
  await expect(timer).toHaveAccessibleName(text(locale, 'promo.endsIn', { time: long }));
  await expect(timer).toHaveAttribute('aria-live', 'off');
}

/** A marker that survives only as long as the document does: no reload happened. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

test('the banner walks the season: before Black Week, during it, Black Friday, Cyber Monday, after — ticking and moving on by itself', async ({ page, request }) => {
  await pauseBrowserClock(page, BERLIN('2026-11-22T23:58:00'));

  // Before Black Week: the standing promise, no countdown — until Monday midnight in Berlin.
  await openAt(page, '/', BERLIN('2026-11-22T23:59:30'));
  await expect(banner(page).line).toHaveText(STANDING_PROMISE);
  await expect(banner(page).timer).toHaveCount(0);
  await markDocument(page);
  await page.clock.runFor(30_000);
  await expectCountdown(page, 'en', 'blackWeek', '7 d 0 h', '7 days');
  await expectSameDocument(page);

  // During Black Week: days and hours to the week's end (Sunday, 24:00), ticking every hour.
  await openAt(page, '/', BERLIN('2026-11-24T19:30:00'));
  await expectCountdown(page, 'en', 'blackWeek', '5 d 5 h', '5 days and 5 hours');
  await page.clock.runFor(29 * MINUTE);
  await expectCountdown(page, 'en', 'blackWeek', '5 d 5 h', '5 days and 5 hours');
  await page.clock.runFor(1 * MINUTE);
  await expectCountdown(page, 'en', 'blackWeek', '5 d 4 h', '5 days and 4 hours');

  // Black Friday: rendered by the server already (no shift when the page comes alive)…
  const blackFriday = BERLIN('2026-11-27T18:48:00');
  const html = await (await request.get('/', { headers: { [TEST_NOW_HEADER]: blackFriday } })).text();
  expect(html).toContain('role="timer"');
  expect(html).toContain(`>${text('en', 'promo.endsIn', { time: '5 h 12 min' })}</span>`);
  // …then ticking every minute.
  await openAt(page, '/', blackFriday);
  await expectCountdown(page, 'en', 'blackFriday', '5 h 12 min', '5 hours and 12 minutes');
  await page.clock.runFor(59_000);
  await expectCountdown(page, 'en', 'blackFriday', '5 h 12 min', '5 hours and 12 minutes');
  await page.clock.runFor(1_000);
  await expectCountdown(page, 'en', 'blackFriday', '5 h 11 min', '5 hours and 11 minutes');

  // In German, Intl's numbers and German plurals; the last seconds tick, and at midnight in
  // Berlin Black Friday gives way to the rest of Black Week, without a reload.
  await openAt(page, '/de', BERLIN('2026-11-27T18:49:00'));
  await expectCountdown(page, 'de', 'blackFriday', '5 Std. 11 Min.', '5 Stunden und 11 Minuten');
  await markDocument(page);
  await page.clock.pauseAt(new Date(BERLIN('2026-11-27T23:59:58')));
  await expectCountdown(page, 'de', 'blackFriday', '0 Min. 02 Sek.', 'weniger als einer Minute');
  await page.clock.runFor(1_000);
  await expectCountdown(page, 'de', 'blackFriday', '0 Min. 01 Sek.', 'weniger als einer Minute');
  await page.clock.runFor(1_000);
  await expectCountdown(page, 'de', 'blackWeek', '2 Tg. 0 Std.', '2 Tagen');
  await expectSameDocument(page);

  // Cyber Monday: hours and minutes to Tuesday, then the standing promise again.
  await openAt(page, '/', BERLIN('2026-11-30T09:15:00'));
  await expectCountdown(page, 'en', 'cyberMonday', '14 h 45 min', '14 hours and 45 minutes');
  await markDocument(page);
  await page.clock.pauseAt(new Date(BERLIN('2026-11-30T23:59:30')));
  await expectCountdown(page, 'en', 'cyberMonday', '0 min 30 s', 'less than a minute');
  await page.clock.runFor(30_000);
  await expect(banner(page).line).toHaveText(STANDING_PROMISE);
  await expect(banner(page).timer).toHaveCount(0);
  await expectSameDocument(page);

  // After the season: the standing promise.
  await openAt(page, '/', BERLIN('2026-12-01T12:00:00'));
  await expect(banner(page).line).toHaveText(STANDING_PROMISE);
  await expect(banner(page).timer).toHaveCount(0);
});

test.describe('on Black Friday', () => {
  test.use({ calendar: BERLIN('2026-11-27T18:48:00') });

  test('the banner and its timer have no axe violations', async ({ page }) => {
    // The browser lives at the page's instant too: past that instant in real time, its own clock
    // would be hours ahead of the page, which the countdown refuses beyond a cached copy's age.
    await pauseBrowserClock(page, BERLIN('2026-11-27T18:48:00'));
    await page.goto('/');
    await expect(page.getByRole('timer')).toHaveAccessibleName(text('en', 'promo.endsIn', { time: '5 hours and 12 minutes' }));
    // axe waits on timers of its own.
    await page.clock.resume();
    const results = await new AxeBuilder({ page }).include('[data-testid="top-banner"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

test('the footer’s year is the club’s: New Year comes at midnight in Berlin', async ({ page }) => {
  // 23:30 UTC on New Year's Eve is already 2027 in Berlin (and still 2026 in Lisbon).
  await pauseBrowserClock(page, '2026-12-31T22:59:59Z');
  await openAt(page, '/', '2026-12-31T22:59:59Z');
  await expect(page.getByText(text('en', 'footer.copyright', { year: '2026' }))).toBeVisible();
  await openAt(page, '/', '2026-12-31T23:30:00Z');
  await expect(page.getByText(text('en', 'footer.copyright', { year: '2027' }))).toBeVisible();
});
