/**
 * The member look-up and the data-protection page (issue 13, ADR 048) in Chromium, acting as each
 * role: support looks an address up, resends the activation and frees a place; privacy exports
 * (a JSON download) and deletes after a confirmation; viewer and operator see no links and are
 * refused by the server. German, Polish on a phone and Swedish admins; zero axe violations.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Locale } from '@velvet/i18n/locales';
import { E2E } from '../../playwright.config.ts';
import { createInvitation, graphql, newAdmin, registerPending } from './support/data.ts';
import { waitForMail } from './support/mail.ts';
import { expect, test, text } from './support.ts';

const prefixOf = (locale: Locale) => (locale === 'en' ? '' : `/${locale}`);

async function signIn(page: Page, locale: Locale, admin: { email: string; password: string }, to: string) {
  const prefix = prefixOf(locale);
  await page.goto(`${prefix}/admin/login?redirectTo=${encodeURIComponent(`${prefix}${to}`)}`);
  await page.getByLabel(text(locale, 'admin.login.email')).fill(admin.email);
  await page.getByLabel(text(locale, 'admin.login.password')).fill(admin.password);
  await page.getByRole('button', { name: text(locale, 'admin.login.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}${to}$`));
}

async function noAxeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** What an admin of `role` sees of an address through the API, with their own session. */
async function lookupAs(admin: { email: string; password: string }, email: string) {
  const { adminLogin } = await graphql<{ adminLogin: { token: string } }>(
    'mutation l($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }',
    admin,
  );
  const { memberLookup } = await graphql<{ memberLookup: { record: { registration: { status: string; activationLinks: { state: string }[] } | null } | null } }>(
    'query q($email: String!) { memberLookup(email: $email) { record { registration { status activationLinks { state } } } } }',
    { email },
    { authorization: `Bearer ${adminLogin.token}` },
  );
  return memberLookup.record;
}

test.describe('support at a desk (German)', () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  test('looks an address up, resends the activation and frees the place after a confirmation', async ({ page }) => {
    const support = await newAdmin('support');
    const invitation = await createInvitation({ balance: 1 });
    const registrant = await registerPending(invitation.code, { language: 'de' });
    await signIn(page, 'de', support, '/admin/registrationlinkgenerator');
    const nav = page.getByRole('navigation', { name: text('de', 'admin.nav.label') });
    await expect(nav.getByRole('link', { name: text('de', 'admin.privacy.nav') })).toHaveCount(0);
    await nav.getByRole('link', { name: text('de', 'admin.members.nav') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'admin.members.title'));

    const address = page.getByLabel(text('de', 'admin.members.email'));
    const lookUp = page.getByRole('button', { name: text('de', 'admin.members.search') });
    await address.fill('anna@');
    await lookUp.click();
    await expect(page.getByText(text('de', 'validation.email'))).toBeVisible();
    await expect(address).toHaveAttribute('aria-invalid', 'true');
    await address.fill('niemand-hier@example.test');
    await lookUp.click();
    await expect(page.getByRole('status').filter({ hasText: text('de', 'admin.members.nothingFound') })).toBeVisible();

    // The address as typed by someone on the phone: capitals and spaces, found all the same. Never in the URL.
    await address.fill(`  ${registrant.email.toUpperCase()} `);
    await lookUp.click();
    const record = page.getByTestId('member-record');
    await expect(record.getByRole('heading', { level: 2, name: registrant.email })).toBeVisible();
    expect(page.url()).not.toContain(registrant.email.split('@')[0]!);
    await expect(record.getByTestId('member-status')).toHaveText(text('de', 'admin.members.status.pending'));
    await expect(record.getByTestId('member-place')).toContainText(text('de', 'admin.members.placeHeldUntil', { date: '' }).trim());
    await expect(record.getByRole('table', { name: text('de', 'admin.members.consents') })).toContainText('DE');
    await expect(record.getByRole('table', { name: text('de', 'admin.members.emails') })).toContainText('activation');
    await noAxeViolations(page);
    await page.screenshot({ path: 'screenshots/members-lookup-de-1440.png', fullPage: true });

    await page.getByRole('button', { name: text('de', 'admin.members.resend') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('de', 'admin.members.resent') })).toBeVisible();
    const links = record.getByRole('table', { name: text('de', 'admin.members.links') });
    await expect(links.getByRole('row')).toHaveCount(3);
    await expect(links).toContainText(text('de', 'admin.members.linkState.superseded'));
    await expect(links).toContainText(text('de', 'admin.members.linkReason.resend'));
    // The new email arrives; the first one's link no longer works.
    await waitForMail(registrant.email, 2);

    await page.getByRole('button', { name: text('de', 'admin.members.free') }).click();
    const confirm = page.getByRole('alertdialog', { name: text('de', 'admin.members.freeQuestion', { email: registrant.email }) });
    await expect(confirm).toBeVisible();
    await noAxeViolations(page);
    await page.screenshot({ path: 'screenshots/members-free-confirm-de-1440.png', fullPage: true });
    await confirm.getByRole('button', { name: text('de', 'admin.members.freeConfirm') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('de', 'admin.members.freed') })).toBeVisible();
    await expect(record.getByTestId('member-place')).toHaveText(text('de', 'admin.members.placeFree'));
    await expect(page.getByRole('button', { name: text('de', 'admin.members.free') })).toHaveCount(0);
    // The code has its place back: someone else can register on it now.
    await registerPending(invitation.code);
  });
});

test.describe('support on a phone (Polish, Warsaw)', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 390, height: 844 } });

  test('looks an address up and resends the activation; the reference copies to the clipboard', async ({ page, context }) => {
    const support = await newAdmin('support');
    const invitation = await createInvitation();
    const registrant = await registerPending(invitation.code, { language: 'pl' });
    await signIn(page, 'pl', support, '/admin/members');
    await page.getByLabel(text('pl', 'admin.members.email')).fill(registrant.email);
    await page.getByRole('button', { name: text('pl', 'admin.members.search') }).click();
    await expect(page.getByTestId('member-status')).toHaveText(text('pl', 'admin.members.status.pending'));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: text('pl', 'admin.members.copyReference') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('pl', 'admin.linkGenerator.copied') })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.getByTestId('member-reference').textContent());
    await page.getByRole('button', { name: text('pl', 'admin.members.resend') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('pl', 'admin.members.resent') })).toBeVisible();
    await noAxeViolations(page);
    await page.screenshot({ path: 'screenshots/members-resent-pl-390.png', fullPage: true });
    const record = await lookupAs(support, registrant.email);
    expect(record?.registration?.activationLinks.map((l) => l.state)).toEqual(['current', 'superseded']);
  });
});

test.describe('the data-protection officer (English, desk)', () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  test('exports everything about an address as a JSON file, then deletes it after a confirmation', async ({ page }) => {
    const privacy = await newAdmin('privacy');
    const invitation = await createInvitation();
    const registrant = await registerPending(invitation.code);
    await signIn(page, 'en', privacy, '/admin/registrationlinkgenerator');
    await page.getByRole('navigation', { name: text('en', 'admin.nav.label') }).getByRole('link', { name: text('en', 'admin.privacy.nav') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'admin.privacy.title'));
    // What law keeps is said on the page before anything is deleted.
    await expect(page.getByRole('region', { name: text('en', 'admin.privacy.keptTitle') })).toContainText(text('en', 'admin.privacy.keptText'));

    await page.getByLabel(text('en', 'admin.members.email')).fill('nobody-here@example.test');
    await page.getByRole('button', { name: text('en', 'admin.privacy.export') }).click();
    await expect(page.getByRole('alert')).toHaveText(text('en', 'admin.members.nothingFound'));

    await page.getByLabel(text('en', 'admin.members.email')).fill(registrant.email);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: text('en', 'admin.privacy.export') }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^personal-data-[\w-]{8}-.+\.json$/);
    const exported = JSON.parse(await readFile((await file.path())!, 'utf8')) as Record<string, unknown> & { registration: { status: string; firstName: string } };
    expect(exported).toMatchObject({ schema: 'velvet-rope/personal-data-export', version: 1, email: registrant.email });
    expect(Date.parse(exported.exportedAt as string)).not.toBeNaN();
    expect(exported.registration).toMatchObject({ status: 'pending', firstName: registrant.firstName });
    await expect(page.getByRole('link', { name: text('en', 'admin.privacy.download', { fileName: file.suggestedFilename() }) })).toBeVisible();
    await noAxeViolations(page);
    await page.screenshot({ path: 'screenshots/privacy-export-en-1440.png', fullPage: true });

    await page.getByRole('button', { name: text('en', 'admin.privacy.erase') }).click();
    const confirm = page.getByRole('alertdialog', { name: text('en', 'admin.privacy.eraseQuestion', { email: registrant.email }) });
    await expect(confirm).toContainText(text('en', 'admin.privacy.eraseText'));
    // It shows what would go: one registration, its consent, its link and its email.
    await expect(confirm.getByRole('definition')).toHaveText(['1', '0', '0', '0', '1', '1', '1']);
    await noAxeViolations(page);
    await page.screenshot({ path: 'screenshots/privacy-erase-confirm-en-1440.png', fullPage: true });
    // Asking changed nothing yet.
    expect((await lookupAs(privacy, registrant.email))?.registration?.status).toBe('pending');
    await confirm.getByRole('button', { name: text('en', 'admin.privacy.eraseConfirm') }).click();
    const receipt = page.getByRole('status').filter({ hasText: text('en', 'admin.privacy.erased') });
    await expect(receipt).toBeVisible();
    await expect(receipt).toContainText('1 consent proof was kept, without the address.');
    await noAxeViolations(page);
    await page.screenshot({ path: 'screenshots/privacy-erased-en-1440.png', fullPage: true });
    expect(await lookupAs(privacy, registrant.email)).toBeNull();

    // The audit log has both, under the reference, never the address.
    await page.getByRole('navigation', { name: text('en', 'admin.nav.label') }).getByRole('link', { name: text('en', 'admin.nav.audit') }).click();
    await page.getByLabel(text('en', 'admin.audit.action')).selectOption('privacy.erased');
    await page.getByRole('button', { name: text('en', 'admin.audit.search') }).click();
    await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText(/subject:/);
    // What happened, in words, above its id (translation review of 27 Nov, X5).
    await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText(text('en', 'admin.audit.event.privacy.erased'));
    await expect(page.getByRole('table')).not.toContainText(registrant.email);
  });
});

test.describe('roles without the permission (Swedish)', () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  for (const role of ['viewer', 'operator'] as const) {
    test(`a ${role} sees no link to either page, and the server refuses them`, async ({ page }) => {
      const admin = await newAdmin(role);
      const registrant = await registerPending((await createInvitation()).code);
      await signIn(page, 'sv', admin, '/admin/registrationlinkgenerator');
      const nav = page.getByRole('navigation', { name: text('sv', 'admin.nav.label') });
      await expect(nav.getByRole('link', { name: text('sv', 'admin.nav.security') })).toBeVisible();
      await expect(nav.getByRole('link', { name: text('sv', 'admin.members.nav') })).toHaveCount(0);
      await expect(nav.getByRole('link', { name: text('sv', 'admin.privacy.nav') })).toHaveCount(0);
      for (const path of ['/sv/admin/members', '/sv/admin/privacy']) {
        await page.goto(path);
        await expect(page.getByRole('alert')).toHaveText(text('sv', 'admin.forbidden'));
        await expect(page.getByLabel(text('sv', 'admin.members.email'))).toHaveCount(0);
      }
      await noAxeViolations(page);
      if (role === 'viewer') await page.screenshot({ path: 'screenshots/members-refused-sv-1440.png', fullPage: true });
      // Posting the forms anyway changes nothing: the API refuses the role.
      for (const [path, form] of [
        ['/sv/admin/privacy', { intent: 'erase', confirmed: 'yes', email: registrant.email }],
        ['/sv/admin/members', { intent: 'resend', email: registrant.email, memberId: 'any' }],
      ] as const) {
        const response = await page.request.post(path, { headers: { origin: E2E.base }, form });
        expect(response.status(), path).toBeLessThan(500);
      }
      const owner = await newAdmin('owner');
      const record = await lookupAs(owner, registrant.email);
      expect(record?.registration).toEqual({ status: 'pending', activationLinks: [{ state: 'current' }] });
    });
  }
});
