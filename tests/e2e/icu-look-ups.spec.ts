/**
 * A phone's page load never waits for the browser to list ICU's locales (ADR 068, issue 19 §5):
 * the first `Intl.NumberFormat`, `Intl.DateTimeFormat`, `Intl.DisplayNames` or `Intl.Collator`
 * of a page, or any `supportedLocalesOf`, costs 25–90 ms of one task on a two-core machine (150–
 * 210 ms at 4× CPU), in the middle of hydration. Pages whose first render formats no number and no
 * date ask none of them: FormatJS is told our languages exist, the form's countries come named and
 * sorted from the server, the landing page's figures come formatted and its banner's promotions
 * as instants, the promotion's countdown writes its numbers without `Intl.NumberFormat`, and the
 * browser's time zone is read from Temporal where it has it.
 */
import type { Page } from '@playwright/test';
import { QUIET_DAY, TEST_NOW_HEADER, expect, test, text, waitForHydration } from './support.ts';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

/** Records, from before the page's first script, every use of an `Intl` service that lists ICU's locales. */
async function recordLookUps(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __lookUps: string[] }).__lookUps = seen;
    for (const name of ['NumberFormat', 'DateTimeFormat', 'DisplayNames', 'Collator'] as const) {
      const Service = Intl[name] as unknown as { new (...args: unknown[]): object; supportedLocalesOf: (...args: unknown[]) => string[] };
      const supportedLocalesOf = Service.supportedLocalesOf.bind(Service);
      const Recorded = function (this: unknown, ...args: unknown[]) {
        seen.push(`new Intl.${name}(${JSON.stringify(args)})`);
        return Reflect.construct(Service, args, new.target ?? Recorded);
      } as unknown as typeof Service;
      Recorded.prototype = Service.prototype;
      Recorded.supportedLocalesOf = (...args: unknown[]) => {
        seen.push(`Intl.${name}.supportedLocalesOf`);
        return supportedLocalesOf(...args);
      };
      (Intl as unknown as Record<string, unknown>)[name] = Recorded;
    }
    const localeCompare = String.prototype.localeCompare;
    String.prototype.localeCompare = function (this: string, ...args: Parameters<typeof localeCompare>) {
      seen.push('String#localeCompare');
      return localeCompare.apply(this, args);
    };
  });
}

/** What the page asked once it had hydrated and gone quiet. */
async function lookUpsAfterLoad(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => (window as unknown as { __lookUps: string[] }).__lookUps);
}

test.describe('a phone in Warsaw (pl)', () => {
  test.use({ ...PHONE, locale: 'pl-PL', timezoneId: 'Europe/Warsaw' });

  test('loads the application, a static page and the registration form without listing ICU’s locales', async ({ page, invitation }) => {
    await recordLookUps(page);
    expect(await lookUpsAfterLoad(page, '/pl/membership-interest/apply')).toEqual([]);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await lookUpsAfterLoad(page, '/de/about-us')).toEqual([]);
    expect(await lookUpsAfterLoad(page, `/pl/registration/formstarted?rc=${invitation.code}`)).toEqual([]);

    // The countries still read in Polish, in Polish order, and the server's country is chosen.
    const country = page.getByLabel(text('pl', 'registration.country'));
    const names = await country.locator('option').allTextContents();
    expect(names).toContain('Niemcy');
    expect(names).toContain('Polska');
    expect(names).toEqual([...names].sort(new Intl.Collator('pl').compare));
    await expect(country).toHaveValue('PL');
  });

  test('loads the landing pages outside the promotion season without listing ICU’s locales', async ({ page, invitation }) => {
    await recordLookUps(page);
    await page.setExtraHTTPHeaders({ [TEST_NOW_HEADER]: QUIET_DAY });
    expect(await lookUpsAfterLoad(page, '/pl')).toEqual([]);
    // The figures, formatted by the server, read as Polish writes them.
    await expect(page.getByText(text('pl', 'figures.rating', { rating: '4,8' }), { exact: true })).toBeVisible();
    expect(await lookUpsAfterLoad(page, `/pl?rc=${invitation.code}`)).toEqual([]);
    await expect(page.getByTestId('top-banner')).toBeVisible();
  });

  test('loads the landing page in Black Week, its countdown ticking, without listing ICU’s locales', async ({ page, invitation }) => {
    const blackWeek = '2026-11-25T12:00:00+01:00';
    await recordLookUps(page);
    await page.setExtraHTTPHeaders({ [TEST_NOW_HEADER]: blackWeek });
    await page.clock.install({ time: new Date(blackWeek) });
    expect(await lookUpsAfterLoad(page, `/pl?rc=${invitation.code}`)).toEqual([]);
    // Black Week ends on Cyber Monday's eve: 4 days and 12 hours from Wednesday noon.
    const timer = page.getByRole('timer');
    await expect(timer).toHaveText('Kończy się za 4 dni 12 godz.');
    await expect(timer).toHaveAccessibleName('Kończy się za 4 dni i 12 godzin');
    expect(await page.evaluate(() => (window as unknown as { __lookUps: string[] }).__lookUps)).toEqual([]);
  });
});

test.describe('a visitor whose languages name no club country (en-US), in Warsaw', () => {
  test.use({ ...PHONE, locale: 'en-US', timezoneId: 'Europe/Warsaw' });

  test('gets the country of the browser’s time zone, read without listing ICU’s locales', async ({ page, invitation }) => {
    await recordLookUps(page);
    expect(await lookUpsAfterLoad(page, `/registration/formstarted?rc=${invitation.code}`)).toEqual([]);
    await expect(page.getByLabel(text('en', 'registration.country'))).toHaveValue('PL');
  });
});
