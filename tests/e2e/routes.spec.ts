import { E2E } from '../../playwright.config.ts';
import { LOCALES } from '@velvet/i18n/locales';
import { SCREENS } from '../../apps/web/app/screens.ts';
import { expect, test, text } from './support.ts';

/** The <title> message of every screen. */
const TITLES: Record<(typeof SCREENS)[number]['name'], string> = {
  'about-us': 'meta.aboutUs.title',
  stores: 'meta.stores.title',
  'admin-login': 'meta.adminLogin.title',
  'admin-registration-link-generator': 'meta.adminLinkGenerator.title',
  'admin-split-generator': 'meta.adminSplitGenerator.title',
  'admin-funnel': 'meta.adminFunnel.title',
  'admin-security': 'meta.adminSecurity.title',
  'admin-audit': 'meta.adminAudit.title',
  'admin-admins': 'meta.adminAdmins.title',
  'admin-members': 'admin.members.metaTitle',
  'admin-privacy': 'admin.privacy.metaTitle',
  'admin-waitlist': 'admin.waitlist.title',
  'admin-outbox': 'admin.outbox.metaTitle',
  'admin-webhooks': 'admin.webhooks.metaTitle',
  'admin-features': 'admin.features.metaTitle',
  'admin-codes': 'admin.codes.metaTitle',
  'admin-code': 'admin.codes.metaCodeTitle',
  'error-404': 'meta.notFound.title',
  lobby: 'meta.lobby.title',
  'membership-interest': 'meta.membershipInterest.title',
  'membership-interest-apply': 'meta.membershipInterestApply.title',
  'membership-interest-confirmation': 'meta.membershipInterestConfirmation.title',
  'activate-account': 'meta.activateAccount.title',
  'activate-account-error': 'meta.activateAccountError.title',
  deny: 'meta.deny.title',
  'form-finished': 'meta.formFinished.title',
  'form-started': 'meta.formStarted.title',
  'gift-voucher': 'meta.giftVoucher.title',
  'email-active-complete': 'meta.emailActiveComplete.title',
  'email-pending-complete': 'meta.emailPendingComplete.title',
  'social-registration-second-step': 'meta.socialSecondStep.title',
  'waitlist-leave': 'meta.waitlistLeave.title',
  'application-status': 'meta.applicationStatus.title',
  'my-data': 'meta.myData.title',
  landing: 'meta.landing.title',
};

/** Where a screen sends a visitor who arrives with nothing (no session, code or id). */
const REDIRECTS: Partial<Record<(typeof SCREENS)[number]['name'], string>> = {
  'admin-registration-link-generator': '/admin/login?redirectTo=',
  'admin-split-generator': '/admin/login?redirectTo=',
  'admin-funnel': '/admin/login?redirectTo=',
  'admin-security': '/admin/login?redirectTo=',
  'admin-audit': '/admin/login?redirectTo=',
  'admin-admins': '/admin/login?redirectTo=',
  'admin-members': '/admin/login?redirectTo=',
  'admin-privacy': '/admin/login?redirectTo=',
  'admin-waitlist': '/admin/login?redirectTo=',
  'admin-outbox': '/admin/login?redirectTo=',
  'admin-webhooks': '/admin/login?redirectTo=',
  'admin-features': '/admin/login?redirectTo=',
  'admin-codes': '/admin/login?redirectTo=',
  'admin-code': '/admin/login?redirectTo=',
  'form-started': '',
  // The outcome pages speak of the visitor's own registration or application.
  'form-finished': '',
  'email-active-complete': '',
  'email-pending-complete': '',
  'membership-interest-confirmation': '/membership-interest/apply',
  'activate-account': '/registration/activateaccountError?error=invalid',
  lobby: '/registration/deny?reason=token',
  'social-registration-second-step': '/registration/deny?reason=sign-in',
};

const decode = (html: string) =>
  html.replace(/&amp;/g, '&').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');

const VARIANTS = [{ prefix: '', locale: 'en' as const }, ...LOCALES.map((locale) => ({ prefix: `/${locale}`, locale }))];

for (const { prefix, locale } of VARIANTS) {
  test(`every screen answers under "${prefix || '(no prefix)'}" in ${locale}`, async ({ request }) => {
    for (const screen of SCREENS) {
      const rest = screen.path === ':slug?' ? '' : `/${screen.path}`;
      const url = `${prefix}${rest}` || '/';
      const response = await request.get(url, { headers: { 'accept-language': '' }, maxRedirects: 0 });
      const redirect = REDIRECTS[screen.name];
      if (redirect !== undefined) {
        // Screens that need something first (sign-in, an invitation, an activation id).
        expect(response.status(), url).toBe(302);
        expect(response.headers().location, url).toContain(`${prefix}${redirect}`);
        continue;
      }
      const expected = screen.name === 'error-404' ? 404 : 200;
      expect(response.status(), url).toBe(expected);
      const html = await response.text();
      expect(html, url).toContain(`<html lang="${locale}"`);
      const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
      expect(title, url).toBe(text(locale, TITLES[screen.name]));
    }
  });
}

test('a campaign slug opens the landing page; an unknown one is a 404 naming the path', async ({ page }) => {
  const ok = await page.goto('/de/vip');
  expect(ok?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'landing.hero.title'));

  const missing = await page.goto('/no-such-campaign');
  expect(missing?.status()).toBe(404);
  // Spec §2's "Page Not Found: {path}": the headline, and the path in the line below it (ADR 057).
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'notFound.title'));
  await expect(page.locator('main code')).toHaveText('/no-such-campaign');
  await expect(page).toHaveTitle(text('en', 'meta.notFound.title'));
});

test('an unmatched path shows "Page not found" with status 404 and a way back', async ({ page }) => {
  const response = await page.goto('/fr/nothing/here');
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('fr', 'notFound.title'));
  await page.getByRole('link', { name: text('fr', 'nav.backToStart') }).click();
  await expect(page).toHaveURL(/\/fr$/);
});

test('the old /acquisition prefix lands on the same page', async ({ page }) => {
  await page.goto('/acquisition/error/404');
  await expect(page).toHaveURL(/\/error\/404$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'notFound.title'));
});

test('every page names its language variants for search engines', async ({ request }) => {
  const html = await request.get('/de/about-us').then((r) => r.text());
  for (const locale of LOCALES) {
    expect(html).toContain(`hrefLang="${locale}" href="${E2E.base}/${locale}/about-us"`);
  }
  expect(html).toContain(`hrefLang="x-default" href="${E2E.base}/about-us"`);
  expect(html).toContain(`rel="canonical" href="${E2E.base}/de/about-us"`);
});
