/**
 * Addresses that name no page (issue 8 §2): one 404 design inside the site's frame, the
 * path readable, the language prefix case-insensitive, and addresses that cannot even be
 * decoded answered by the site itself in the visitor's language, never with a stack trace.
 */
import type { Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { createInvitation } from './support/data.ts';
import { expect, test, text } from './support.ts';

/** The frame every page has: the header's login link, the footer's language switch. */
async function expectSiteFrame(page: Page, locale: Locale) {
  await expect(page.getByRole('banner').getByRole('link', { name: text(locale, 'nav.login') })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Deutsch' })).toBeVisible();
  await expect(page.getByRole('link', { name: text(locale, 'nav.backToStart') })).toBeVisible();
}

test('an unknown campaign and an unknown deep path share the site’s 404 design', async ({ page }) => {
  const slug = await page.goto('/nonexistent');
  expect(slug?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'notFound.title'));
  await expect(page.locator('main code')).toHaveText('/nonexistent');
  await expect(page.getByText(text('en', 'notFound.text'))).toBeVisible();
  await expectSiteFrame(page, 'en');

  const deep = await page.goto('/a/b');
  expect(deep?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'notFound.title'));
  await expect(page.locator('main code')).toHaveText('/a/b');
  await expect(page.getByText(text('en', 'notFound.text'))).toBeVisible();
  await expectSiteFrame(page, 'en');
});

test('the path in "Page Not Found" reads as typed, not percent-encoded', async ({ page }) => {
  const response = await page.goto('/de/über-uns');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'notFound.title'));
  await expect(page.locator('main code')).toHaveText('/de/über-uns');
  await expectSiteFrame(page, 'de');
});

test('the language prefix is case-insensitive: /DE is the German site at its own address', async ({ page }) => {
  await page.goto('/DE/about-us?lang=fr');
  await expect(page).toHaveURL(/\/de\/about-us\?lang=fr$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.goto('/DE');
  await expect(page).toHaveURL(/\/de$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'landing.hero.title'));
});

for (const { path, locale, shown } of [
  { path: '/%', locale: 'en' as const, shown: '/%' },
  { path: '/de/%ZZ', locale: 'de' as const, shown: '/de/%ZZ' },
  { path: '/pl/%C3%28', locale: 'pl' as const, shown: '/pl/%C3%28' },
]) {
  test(`an address that cannot be decoded (${path}) gets the site’s translated page, no stack trace`, async ({ page, request }) => {
    const redirect = await request.get(path, { maxRedirects: 0 });
    expect(redirect.status()).toBe(301);
    expect(redirect.headers().location).toBe(path.replaceAll('%', '%25'));
    const raw = await request.get(path);
    expect(raw.status()).toBe(404);
    const html = await raw.text();
    expect(html).not.toMatch(/URIError|at decodeURIComponent|node_modules|\/work\//);
    expect(html).toContain(`<html lang="${locale}"`);

    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale, 'notFound.title'));
    await expect(page.locator('main code')).toHaveText(shown);
    await expectSiteFrame(page, locale);
  });
}

test('"check your inbox" needs a registration: a hand-made ?finished=1 opens nothing', async ({ page }) => {
  const invitation = await createInvitation({ customization: 'viral' });
  await page.goto(`/viral?rc=${invitation.code}&finished=1`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog', { name: text('en', 'formFinished.popupTitle') })).toHaveCount(0);
});
