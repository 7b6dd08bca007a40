/**
 * Zero axe violations on every public page at a phone's 390 px and a desktop's 1440 px, in all
 * seven languages, with the consent banner open as on a first visit, and in the cookie settings
 * (issue 22, "Done when"). One test per language and width, each page of the round scanned in
 * turn; the list of violations names the page, the rule and the elements.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { LOCALES } from '@velvet/i18n/locales';
import { createInvitation } from './support/data.ts';
import { expect, test, text } from './support.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** The public pages ({code}: the test's own invitation). */
const PAGES = [
  '/registration/activateaccountError?error=invalid',
  '?rc={code}',
  '',
  '/vip?rc={code}',
  '/lean?rc={code}',
  '/about-us',
  '/stores',
  '/membership-interest',
  '/membership-interest/apply',
  // The request form of people without an account (issue 24 §2).
  '/my-data',
  '/registration/formstarted?rc={code}',
  '/registration/deny?reason=referrer&rc={code}',
  '/registration/deny?reason=token',
  '/no-such-page',
];

async function violations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations.map((v) => `${where} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// A first visit: the consent banner is open on every page.
test.use({ consent: 'none' });

for (const locale of LOCALES) {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
    test(`${locale} at ${viewport.width} px: no axe violations on the public pages, the banner and the cookie settings`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(viewport);
      const { code } = await createInvitation();
      const found: string[] = [];
      for (const path of PAGES) {
        const address = `/${locale}${path.replace('{code}', code)}`;
        await page.goto(address);
        // Spec §2: the consent manager is not started on the activation paths.
        if (!path.includes('activateaccount')) await expect(page.getByRole('dialog', { name: text(locale, 'cmp.consent.label') })).toBeVisible();
        found.push(...(await violations(page, address)));
      }
      // The cookie settings, opened from the banner of the last page.
      await page.getByRole('dialog', { name: text(locale, 'cmp.consent.label') }).getByRole('button', { name: text(locale, 'cmp.consent.preferences') }).click();
      await expect(page.getByRole('dialog', { name: text(locale, 'cmp.preferences.title') })).toBeVisible();
      found.push(...(await violations(page, 'cookie settings')));
      expect(found).toEqual([]);
    });
  }
}
