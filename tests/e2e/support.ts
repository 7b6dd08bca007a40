import { randomUUID } from 'node:crypto';
import { catalogs } from '@velvet/i18n/catalogs';
import { LOCALES, type Locale } from '@velvet/i18n/locales';
import { test as base, expect, type Page } from '@playwright/test';
import { E2E } from '../../playwright.config.ts';

export { expect };

/** The catalog text of `id` in `locale`, with simple {placeholders} filled in. */
export function text(locale: Locale, id: string, values: Record<string, string> = {}): string {
  const message = catalogs[locale][id];
  if (message === undefined) throw new Error(`No message ${id} in ${locale}`);
  return message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

export const PREFIXED = LOCALES.map((locale) => ({ locale, prefix: `/${locale}` }));

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
export const TAG_MANAGER_STUB = 'window.__tagManagerStubRuns = (window.__tagManagerStubRuns || 0) + 1;';

/**
 * Fails the test on any console error the page logs: errors are never expected. Every test
 * starts as a visitor who accepted cookies (`test.use({ consent: 'none' })` shows the banner),
 * and the tag manager's address is answered by a stub whose requests are recorded.
 */
export const test = base.extend<{ consoleErrors: string[]; consent: ConsentPreset; tagManager: { requests: string[] } }>({
  consent: ['accepted', { option: true }],
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

/** A message as a screen reader announces it: rich-text tags gone, text kept. */
export function plain(locale: Locale, id: string): string {
  return text(locale, id).replace(/<\/?[a-z]+>/g, '');
}
