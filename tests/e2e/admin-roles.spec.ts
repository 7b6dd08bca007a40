/**
 * Who may do what in the console (issue 13, ADR 045), page by page, for each of the five roles:
 * the first page after signing in, the navigation (a link for exactly the pages the role may
 * use) and every console page opened by its address (the role's own pages open, the others say
 * "your role does not include this" and show nothing of theirs). The permission table in
 * packages/validation decides what is expected; the server decides what happens.
 */
import { ADMIN_ROLES, can, type AdminPermission, type AdminRole } from '@velvet/validation/admin';
import type { Locale } from '@velvet/i18n/locales';
import { newAdmin } from './support/data.ts';
import { expect, test, text } from './support.ts';

/** Every console page, its navigation label and the permission it needs (null: every admin). */
const PAGES: { path: string; nav: string; permission: AdminPermission | null }[] = [
  { path: '/admin/registrationlinkgenerator', nav: 'admin.nav.linkGenerator', permission: 'codes.manage' },
  { path: '/admin/splitgenerator', nav: 'admin.splitGenerator.title', permission: null },
  { path: '/admin/codes', nav: 'admin.codes.nav', permission: 'acquisition.read' },
  { path: '/admin/funnel', nav: 'admin.nav.funnel', permission: null },
  { path: '/admin/waitlist', nav: 'admin.waitlist.nav', permission: 'acquisition.read' },
  { path: '/admin/outbox', nav: 'admin.outbox.nav', permission: 'acquisition.read' },
  { path: '/admin/features', nav: 'admin.features.nav', permission: 'acquisition.read' },
  { path: '/admin/webhooks', nav: 'admin.webhooks.nav', permission: 'webhooks.manage' },
  { path: '/admin/admins', nav: 'admin.nav.admins', permission: 'admins.manage' },
  { path: '/admin/members', nav: 'admin.members.nav', permission: 'members.support' },
  { path: '/admin/privacy', nav: 'admin.privacy.nav', permission: 'privacy.manage' },
  { path: '/admin/audit', nav: 'admin.nav.audit', permission: 'audit.read' },
  { path: '/admin/security', nav: 'admin.nav.security', permission: null },
];

/** Each role signs in from another of the club's countries. */
const LANGUAGES: Record<AdminRole, { locale: Locale; prefix: string; browserLocale: string; timezoneId: string }> = {
  owner: { locale: 'de', prefix: '/de', browserLocale: 'de-DE', timezoneId: 'Europe/Berlin' },
  operator: { locale: 'pl', prefix: '/pl', browserLocale: 'pl-PL', timezoneId: 'Europe/Warsaw' },
  support: { locale: 'sv', prefix: '/sv', browserLocale: 'sv-SE', timezoneId: 'Europe/Stockholm' },
  privacy: { locale: 'fr', prefix: '/fr', browserLocale: 'fr-FR', timezoneId: 'Europe/Paris' },
  viewer: { locale: 'en', prefix: '', browserLocale: 'en-GB', timezoneId: 'Europe/Dublin' },
};

const allowed = (role: AdminRole, permission: AdminPermission | null) => permission === null || can(role, permission);

for (const role of ADMIN_ROLES) {
  const { locale, prefix, browserLocale, timezoneId } = LANGUAGES[role];
  test.describe(`as ${role} (${browserLocale})`, () => {
    test.use({ locale: browserLocale, timezoneId });

    test('the first page, the navigation and every console page match what the role may do', async ({ page }) => {
      const admin = await newAdmin(role);
      await page.goto(`${prefix}/admin/login`);
      await page.getByLabel(text(locale, 'admin.login.email')).fill(admin.email);
      await page.getByLabel(text(locale, 'admin.login.password')).fill(admin.password);
      await page.getByRole('button', { name: text(locale, 'admin.login.submit') }).click();
      const first = can(role, 'codes.manage') ? '/admin/registrationlinkgenerator' : '/admin/codes';
      await expect(page).toHaveURL(new RegExp(`${prefix}${first}$`));

      const nav = page.getByRole('navigation', { name: text(locale, 'admin.nav.label') });
      for (const { nav: label, permission } of PAGES) {
        await expect(nav.getByRole('link', { name: text(locale, label), exact: true }), `${role}: link ${label}`).toHaveCount(allowed(role, permission) ? 1 : 0);
      }

      for (const { path, permission } of PAGES) {
        await page.goto(`${prefix}${path}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        const refusal = page.getByRole('alert').filter({ hasText: text(locale, 'admin.forbidden') });
        await expect(refusal, `${role} on ${path}`).toHaveCount(allowed(role, permission) ? 0 : 1);
        // A refused page shows nothing of its own: no form to fill, no table of records.
        if (!allowed(role, permission)) {
          await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(0);
          await expect(page.getByRole('table')).toHaveCount(0);
        }
      }
    });
  });
}
