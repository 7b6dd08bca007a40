/**
 * The console's invitations (issue 13, ADR 046) in Chromium, acting as each role: an operator
 * creates, finds, changes, revokes and rotates codes and makes a link for one (German on a desktop,
 * Polish on a phone); a viewer and a support admin read the same pages without a single control
 * to change them, and the server refuses them all the same (Swedish). Visitors then meet the
 * revoked and the replaced code with their own messages. An operator in Amsterdam releases a
 * code the leak watch quarantined: the registrations held on it register. Screenshots at 1440 and 390 px.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locale } from '@velvet/i18n/locales';
import type { Page } from '@playwright/test';
import { E2E } from '../../playwright.config.ts';
import { createInvitation, newAdmin, quarantine, registerPending } from './support/data.ts';
import { activationLink, waitForMail } from './support/mail.ts';
import { expect, test, text, textWithCounts } from './support.ts';

async function signIn(page: Page, locale: Locale, admin: { email: string; password: string }, to: string) {
  await page.goto(`/${locale}/admin/login?redirectTo=${encodeURIComponent(`/${locale}${to}`)}`);
  await page.getByLabel(text(locale, 'admin.login.email')).fill(admin.email);
  await page.getByLabel(text(locale, 'admin.login.password')).fill(admin.password);
  await page.getByRole('button', { name: text(locale, 'admin.login.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`/${locale}${to.replaceAll('/', '\\/')}$`));
}

async function noAxeViolations(page: Page) {
  expect(await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`))).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test.describe('an operator in Berlin at a desktop (German)', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1440, height: 900 } });

  test('creates codes, finds them, changes one with bad and good input, and revokes it after a confirmation: visitors are refused', async ({ page, context }) => {
    const operator = await newAdmin('operator');
    const inviter = `Greta${Date.now().toString(36)}`;
    await signIn(page, 'de', operator, '/admin/codes');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'admin.codes.title'));

    const form = page.getByRole('region', { name: text('de', 'admin.codes.new.title') });
    await form.getByLabel(text('de', 'admin.codes.filter.inviter')).fill(inviter);
    await form.getByLabel(text('de', 'admin.codes.new.count')).fill('2');
    await form.getByLabel(text('de', 'admin.codes.new.balance')).fill('-1');
    await form.getByRole('button', { name: text('de', 'admin.codes.new.submit') }).click();
    await expect(form.getByText(text('de', 'admin.codes.error.balance'))).toBeVisible();
    await form.getByLabel(text('de', 'admin.codes.new.balance')).fill('1000000000000');
    await form.getByRole('button', { name: text('de', 'admin.codes.new.submit') }).click();
    await expect(form.getByText(text('de', 'admin.codes.error.balance'))).toBeVisible();
    await form.getByLabel(text('de', 'admin.codes.new.balance')).fill('7');
    await form.getByLabel(text('de', 'admin.codes.new.expires')).fill('2020-01-01');
    await form.getByRole('button', { name: text('de', 'admin.codes.new.submit') }).click();
    await expect(form.getByText(text('de', 'admin.codes.error.expiryPast'))).toBeVisible();
    await form.getByLabel(text('de', 'admin.codes.new.expires')).fill('2031-06-30');
    await form.getByLabel(text('de', 'admin.codes.new.customization')).selectOption('viral');
    await form.getByRole('button', { name: text('de', 'admin.codes.new.submit') }).click();
    const created = form.getByTestId('new-codes').getByRole('link');
    await expect(created).toHaveCount(2);
    const codes = (await created.allTextContents()).map((c) => c.trim());

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await form.getByRole('button', { name: text('de', 'admin.codes.copyCodes') }).click();
    await expect(form.getByRole('status').filter({ hasText: text('de', 'admin.linkGenerator.copied') })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));

    // Search by inviter: exactly the two, with their balance and customization.
    await page.getByLabel(text('de', 'admin.codes.filter.inviter'), { exact: true }).first().fill(inviter.toLowerCase());
    await page.getByRole('button', { name: text('de', 'admin.codes.search') }).click();
    await expect(page).toHaveURL(new RegExp(`inviter=${inviter.toLowerCase()}`));
    const rows = page.getByRole('region', { name: text('de', 'admin.codes.title') }).getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText('viral');
    await expect(rows.nth(1)).toContainText(text('de', 'admin.codes.state.valid'));
    await noAxeViolations(page);
    await shot(page, 'codes-list-1440');

    await page.getByRole('link', { name: codes[0]! }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(codes[0]!);
    await expect(page.getByRole('img', { name: text('de', 'admin.codes.chart.daysTitle') })).toBeVisible();
    await expect(page.getByRole('img', { name: text('de', 'admin.codes.chart.funnelTitle') })).toBeVisible();
    await noAxeViolations(page);
    await shot(page, 'code-page-1440');

    const change = page.getByRole('region', { name: text('de', 'admin.codes.change.title') });
    await change.getByLabel(text('de', 'admin.codes.change.balance')).fill('1000000000000');
    await change.getByRole('button', { name: text('de', 'admin.codes.change.submit') }).click();
    await expect(change.getByText(text('de', 'admin.codes.error.balance'))).toBeVisible();
    await expect(page.getByTestId('code-balance')).toHaveText('7');
    await change.getByLabel(text('de', 'admin.codes.change.balance')).fill('20');
    await change.getByRole('button', { name: text('de', 'admin.codes.change.submit') }).click();
    await expect(change.getByRole('status')).toHaveText(text('de', 'admin.codes.change.saved'));
    await expect(page.getByTestId('code-balance')).toHaveText('20');

    const revoke = page.getByRole('region', { name: text('de', 'admin.codes.revoke.title') });
    await revoke.getByRole('button', { name: text('de', 'admin.codes.revoke.button') }).click();
    const dialog = page.getByRole('alertdialog', { name: text('de', 'admin.codes.revoke.question', { code: codes[0]! }) });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: text('de', 'admin.codes.revoke.confirm') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('de', 'admin.codes.revoke.done', { code: codes[0]! }) })).toBeVisible();
    await expect(page.getByRole('button', { name: text('de', 'admin.codes.revoke.button') })).toHaveCount(0);

    // A visitor with the revoked code is refused with its own message; the other code still opens.
    await page.goto(`/de/?rc=${codes[0]}`);
    await expect(page.getByRole('alert')).toHaveText(text('de', 'invitation.revoked'));
    await page.goto(`/de/?rc=${codes[1]}`);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('an operator in Warsaw on a phone (Polish)', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 390, height: 844 } });

  test('rotates a code after a confirmation and makes a link for the new one; the old one is refused as replaced', async ({ page }) => {
    const operator = await newAdmin('operator');
    const invitation = await createInvitation({ inviter: 'Zofia', balance: 4, slug: 'vip' });
    // Someone registered with it and has not activated yet: their place stays with the old code.
    await registerPending(invitation.code);
    await signIn(page, 'pl', operator, '/admin/codes');
    await page.getByLabel(text('pl', 'admin.codes.filter.code')).fill(invitation.code.toLowerCase());
    await page.getByRole('button', { name: text('pl', 'admin.codes.search') }).click();
    await expect(page).toHaveURL(new RegExp(`code=${invitation.code.toLowerCase()}`));
    const rows = page.getByRole('region', { name: text('pl', 'admin.codes.title') }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await noAxeViolations(page);
    await shot(page, 'codes-list-390');
    await rows.nth(1).getByRole('link', { name: invitation.code }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(invitation.code);
    await expect(page.getByTestId('stat-registrations')).toHaveText('1');
    await expect(page.getByTestId('stat-activations')).toHaveText('0');
    await page.getByText(text('pl', 'admin.codes.chart.table')).click();
    await expect(page.getByRole('region', { name: text('pl', 'admin.codes.chart.table') }).getByRole('row').last()).toContainText('1');
    await noAxeViolations(page);
    await shot(page, 'code-page-390');

    const rotate = page.getByRole('region', { name: text('pl', 'admin.codes.rotate.title') });
    await rotate.getByRole('button', { name: text('pl', 'admin.codes.rotate.button') }).click();
    const dialog = page.getByRole('alertdialog', { name: text('pl', 'admin.codes.rotate.question', { code: invitation.code }) });
    await dialog.getByRole('link', { name: text('pl', 'admin.codes.cancel') }).click();
    await expect(dialog).toHaveCount(0);
    await rotate.getByRole('button', { name: text('pl', 'admin.codes.rotate.button') }).click();
    await page.getByRole('button', { name: text('pl', 'admin.codes.rotate.confirm') }).click();
    const done = page.getByRole('status').filter({ hasText: invitation.code });
    await expect(done).toBeVisible();
    const newCode = /([A-Z0-9]{8})\s*;/.exec((await done.textContent()) ?? '')?.[1] ?? '';
    expect(newCode).toMatch(/^[A-Z0-9]{8}$/);
    await expect(page.getByText(text('pl', 'admin.codes.state.replaced')).first()).toBeVisible();

    await done.getByRole('link', { name: text('pl', 'admin.codes.openNew', { code: newCode }) }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(newCode);
    // The new code has the free places: 4 less the one the pending registration holds.
    await expect(page.getByTestId('code-balance')).toHaveText('3');
    await page.getByRole('link', { name: text('pl', 'admin.codes.links.generate') }).click();
    await expect(page.getByLabel(text('pl', 'admin.linkGenerator.code'))).toHaveValue(newCode);
    await page.getByRole('button', { name: text('pl', 'admin.linkGenerator.submit') }).click();
    await expect(page.getByTestId('generated-link')).toContainText(`rc=${newCode}`);

    await page.goto(`/pl/?rc=${invitation.code}`);
    await expect(page.getByRole('alert')).toHaveText(text('pl', 'invitation.replaced', { inviterName: 'Zofia' }));
    await page.goto(`/pl/?rc=${newCode}`);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('read-only roles in Stockholm (Swedish)', () => {
  test.use({ locale: 'sv-SE', timezoneId: 'Europe/Stockholm' });

  for (const role of ['viewer', 'support'] as const) {
    test(`a ${role} reads the codes and a code's figures, sees nothing to change, and the server refuses a change anyway`, async ({ page }) => {
      const admin = await newAdmin(role);
      const invitation = await createInvitation({ inviter: 'Astrid', balance: 3 });
      await signIn(page, 'sv', admin, '/admin/registrationlinkgenerator');
      await page.getByRole('navigation', { name: text('sv', 'admin.nav.label') }).getByRole('link', { name: text('sv', 'admin.codes.nav') }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('sv', 'admin.codes.title'));
      await expect(page.getByRole('region', { name: text('sv', 'admin.codes.new.title') })).toHaveCount(0);
      await page.goto(`/sv/admin/codes/${invitation.code}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(invitation.code);
      await expect(page.getByText(text('sv', 'admin.codes.readOnly'))).toBeVisible();
      for (const id of ['admin.codes.change.submit', 'admin.codes.revoke.button', 'admin.codes.rotate.button']) {
        await expect(page.getByRole('button', { name: text('sv', id) })).toHaveCount(0);
      }
      await noAxeViolations(page);

      // The charts are in the server's HTML, before any script runs: SVG bars with a title and description.
      const html = await (await page.request.get(`/sv/admin/codes/${invitation.code}`)).text();
      for (const testId of ['days-chart', 'code-funnel-chart']) {
        expect(html).toMatch(new RegExp(`<svg role="img"[^>]*data-testid="${testId}"[^>]*>\\s*<title[^>]*>[^<]+</title>\\s*<desc`));
      }
      expect(html.match(/<rect [^>]*fill="#0a0a0a"/g)?.length ?? 0).toBeGreaterThanOrEqual(9);

      // The form a page would have posted, posted anyway: the API refuses the role.
      const response = await page.request.post(`/sv/admin/codes/${invitation.code}`, {
        form: { intent: 'revoke', confirmed: 'yes' },
        headers: { origin: E2E.base },
      });
      expect(await response.text()).toContain(text('sv', 'admin.forbidden'));
      await page.reload();
      await expect(page.getByText(text('sv', 'admin.codes.state.valid')).first()).toBeVisible();
      await page.goto(`/sv/?rc=${invitation.code}`);
      await expect(page.getByRole('alert')).toHaveCount(0);
    });
  }
});

test.describe('an operator in Amsterdam at a desktop (Dutch)', () => {
  test.use({ locale: 'nl-NL', timezoneId: 'Europe/Amsterdam', viewport: { width: 1440, height: 900 } });

  test('releases a quarantined code after a confirmation: the held registrations register while places last, and their emails arrive', async ({ page }) => {
    const invitation = await createInvitation({ inviter: 'Femke', balance: 2 });
    await quarantine(invitation.code);
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await registerPending(invitation.code, { language: 'nl' }, 'PENDING_REVIEW'));
    const operator = await newAdmin('operator');
    await signIn(page, 'nl', operator, `/admin/codes/${invitation.code}`);
    await expect(page.locator('[data-state="quarantined"]')).toHaveText(text('nl', 'admin.codes.state.quarantined'));

    const release = page.getByRole('region', { name: text('nl', 'admin.codes.release.title') });
    await release.getByRole('button', { name: text('nl', 'admin.codes.release.button') }).click();
    const question = release.getByRole('alertdialog');
    await expect(question).toContainText(text('nl', 'admin.codes.release.question', { code: invitation.code }));
    await noAxeViolations(page);
    await shot(page, 'code-release-question-nl-1440');
    await question.getByRole('button', { name: text('nl', 'admin.codes.release.confirm') }).click();
    await expect(page.getByRole('status').filter({ hasText: invitation.code })).toHaveText(textWithCounts('nl', 'admin.codes.release.done', { registered: 2, dropped: 1 }, { code: invitation.code }));
    await expect(page.getByRole('region', { name: text('nl', 'admin.codes.release.title') })).toHaveCount(0);
    await shot(page, 'code-released-nl-1440');

    // The two oldest held registrations registered and got their activation email; the third found no place.
    for (const person of held.slice(0, 2)) expect(activationLink((await waitForMail(person.email))[0]!)).toContain('activationId=');
    // Releasing again (a second tab) is refused with its own message, and nothing more is sent.
    await page.goto(`/nl/admin/codes/${invitation.code}`);
    await expect(page.getByRole('region', { name: text('nl', 'admin.codes.release.title') })).toHaveCount(0);
    const forged = await page.request.post(`/nl/admin/codes/${invitation.code}`, { form: { intent: 'release', confirmed: 'yes' }, headers: { origin: E2E.base } });
    expect(await forged.text()).toContain(text('nl', 'admin.codes.error.notQuarantined'));
  });
});
