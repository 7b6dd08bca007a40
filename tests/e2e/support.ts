import { randomUUID } from 'node:crypto';
import { catalogs } from '@velvet/i18n/catalogs';
import type { Locale } from '@velvet/i18n/locales';
import { test as base, expect, type Page, type Route } from '@playwright/test';
import { E2E } from '../../playwright.config.ts';
import { createInvitation, type Invitation } from './support/data.ts';

export { expect };

/** The catalog text of `id` in `locale`, with simple {placeholders} filled in. */
export function text(locale: Locale, id: string, values: Record<string, string> = {}): string {
  const message = catalogs[locale][id];
  if (message === undefined) throw new Error(`No message ${id} in ${locale}`);
  return message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

/** A message with `{name, plural, …}` arguments (not nested), as the page formats them for `counts`, and its `{name}` values. */
export function textWithCounts(locale: Locale, id: string, counts: Record<string, number>, values: Record<string, string> = {}): string {
  let message = text(locale, id, values);
  for (const [name, count] of Object.entries(counts)) {
    const category = new Intl.PluralRules(locale).select(count);
    message = message.replace(new RegExp(`\\{${name}, plural,((?:\\s*[=\\w]+ \\{[^{}]*\\})+)\\s*\\}`), (_, cases: string) => {
      const options = Object.fromEntries([...cases.matchAll(/([=\w]+) \{([^{}]*)\}/g)].map((m) => [m[1], m[2]]));
      return (options[`=${count}`] ?? options[category] ?? options.other ?? '').replaceAll('#', String(count));
    });
  }
  return message;
}

/** The header that sets the calendar's "now" of the web server under test (TEST_CLOCK, ADR 021). */
export const TEST_NOW_HEADER = 'x-test-now';

/**
 * A day of no promotion (mid-June, a Monday): every page of the suite is rendered for it unless a
 * test chooses another (`test.use({ calendar })`), so no test depends on the day it runs.
 */
export const QUIET_DAY = '2026-06-15T10:00:00.000Z';

/**
 * Starts the browser's clock at `instant` with Playwright's clock API, paused: nothing in the page
 * moves until the test advances it (`page.clock.runFor`, `page.clock.pauseAt`). Together with the
 * server's calendar (X-Test-Now) the page then lives at that instant, to the millisecond.
 */
export async function pauseBrowserClock(page: Page, instant: string): Promise<void> {
  // install() starts the clock flowing; pauseAt() needs a moment ahead of it.
  await page.clock.install({ time: new Date(new Date(instant).getTime() - 60_000) });
  await page.clock.pauseAt(new Date(instant));
}

/**
 * A visitor's stored consent choice, as the consent manager writes its cookie (ADR 011):
 * `accepted` (everything), `rejected` (necessary only), or `none` (no choice yet: the banner shows).
 */
export type ConsentPreset = 'accepted' | 'rejected' | 'none';

export function consentCookie(preset: Exclude<ConsentPreset, 'none'>, consentId: string = randomUUID()) {
  const now = new Date();
  const value = {
    categories: preset === 'accepted' ? ['necessary', 'analytics', 'marketing'] : ['necessary'],
    revision: 1,
    data: null,
    consentTimestamp: now.toISOString(),
    consentId,
    services: { necessary: [], analytics: [], marketing: [] },
    languageCode: 'en',
    lastConsentTimestamp: now.toISOString(),
    expirationTime: now.getTime() + 182 * 86_400_000,
  };
  return { name: 'acq_consent', value: encodeURIComponent(JSON.stringify(value)), url: E2E.base, sameSite: 'Lax' as const };
}

/** A stand-in for the tag manager's script: counts its runs, sends nothing anywhere. */
const TAG_MANAGER_STUB = 'window.__tagManagerStubRuns = (window.__tagManagerStubRuns || 0) + 1;';

/**
 * Fails the test on any console error the page logs: errors are never expected. Every test
 * starts as a visitor who accepted cookies (`test.use({ consent: 'none' })` shows the banner),
 * the tag manager's address is answered by a stub whose requests are recorded, and the server
 * renders every page, and answers every call of `request`, for the same calendar day (`calendar`).
 * A test that asks for `invitation` gets a fresh, valid one of its own (support/data.ts: Sophie's
 * code with 5 places, made with the admin CLI), so no test shares a code's balance with another.
 */
export const test = base.extend<{
  consoleErrors: string[];
  consent: ConsentPreset;
  tagManager: { requests: string[] };
  calendar: string;
  invitation: Invitation;
}>({
  consent: ['accepted', { option: true }],
  /**
   * The instant the server renders every page of the test for (ADR 021); a quiet day unless a test
   * sets one, or the server's own clock for `''` (a page rendered for a test day is never shared).
   */
  calendar: [QUIET_DAY, { option: true }],
  extraHTTPHeaders: async ({ extraHTTPHeaders, calendar }, use) => {
    await use({ ...extraHTTPHeaders, ...(calendar ? { [TEST_NOW_HEADER]: calendar } : {}) });
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern.
  invitation: async ({}, use) => {
    await use(await createInvitation());
  },
  context: async ({ context, consent }, use) => {
    if (consent !== 'none') await context.addCookies([consentCookie(consent)]);
    await use(context);
  },
  tagManager: [
    async ({ page }, use) => {
      const requests: string[] = [];
      await page.route(`${E2E.gtm.scriptUrl}**`, (route) => {
        requests.push(route.request().url());
        return route.fulfill({ contentType: 'text/javascript', body: TAG_MANAGER_STUB });
      });
      await use({ requests });
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        // The browser reports a page's own 404/403 status as a console error; that status is
        // what some tests are about, so only errors of other resources count.
        const ownStatus = /^Failed to load resource: the server responded with a status of 40[34]/.test(message.text()) && message.location().url === page.url();
        if (!ownStatus) errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * The funnel and error events the page pushed to its data layer, by name, in order: not the
 * consent-mode commands, the consent-manager data (cmp_data), the tag manager's own (gtm.*)
 * or experiment assignments (assign_experiment: experiments.spec.ts reads those).
 */
export function dataLayerEvents(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [])
      .map((e) => (e && typeof e === 'object' && 'event' in e && typeof e.event === 'string' ? e.event : null))
      .filter((name): name is string => name !== null && name !== 'cmp_data' && name !== 'assign_experiment' && !name.startsWith('gtm.')),
  );
}

/**
 * Waits until React has hydrated the page (its fiber is on <body>): from then on, what a test
 * does is handled by the app, and a form that would post or reset by itself has had its chance.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith('__reactFiber')));
}

/**
 * Until the page's running CSS transitions and animations have finished (a button just clicked
 * is still fading to its hover colours): axe measures the colours a visitor reads, not a frame
 * in between, which once failed colour contrast on a settled page.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // A busy spinner runs for ever; only what ends is waited for.
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** A message as a screen reader announces it: rich-text tags gone, text kept. */
export function plain(locale: Locale, id: string): string {
  return text(locale, id).replace(/<\/?[a-z]+>/g, '');
}

/** Holds the requests `url` matches (and `matches` accepts) until `release()`: nothing is answered before. */
export async function hold(page: Page, url: string | RegExp | ((url: URL) => boolean), matches: (route: Route) => boolean = () => true) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(url, async (route) => {
    if (!matches(route)) return route.fallback();
    held += 1;
    await released;
    await route.fallback();
  });
  return { release, held: () => held };
}
