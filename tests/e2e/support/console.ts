import type { Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { expect, text } from '../support.ts';

/** Signs an admin in through the console's form, in `locale`, and waits for the page `to` (a path without prefix). */
export async function signInToConsole(page: Page, locale: Locale, admin: { email: string; password: string }, to: string) {
  const prefix = locale === 'en' ? '' : `/${locale}`;
  await page.goto(`${prefix}/admin/login?redirectTo=${encodeURIComponent(`${prefix}${to}`)}`);
  await page.getByLabel(text(locale, 'admin.login.email')).fill(admin.email);
  await page.getByLabel(text(locale, 'admin.login.password')).fill(admin.password);
  await page.getByRole('button', { name: text(locale, 'admin.login.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}${to}$`));
}
