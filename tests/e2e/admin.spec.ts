import { E2E } from '../../playwright.config.ts';
import AxeBuilder from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import { adminWithSecondFactor, createInvitation, newAdmin } from './support/data.ts';
import { expect, test, text } from './support.ts';

test('admin pages need a sign-in; the link generator makes a signed 14-day link', async ({ page, context }) => {
  const [spent, linkOnly] = await Promise.all([createInvitation({ inviter: 'Julia', balance: 0 }), createInvitation({ linkOnly: true })]);
  await page.goto('/admin/registrationlinkgenerator');
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fregistrationlinkgenerator$/);

  await page.getByLabel(text('en', 'admin.login.email')).fill(E2E.admin.email);
  await page.getByLabel(text('en', 'admin.login.password')).fill('wrong password');
  await page.getByRole('button', { name: text('en', 'admin.login.submit') }).click();
  await expect(page.getByRole('alert')).toHaveText(text('en', 'admin.login.invalid'));
  await expect(page.getByLabel(text('en', 'admin.login.password'))).toHaveValue('');

  await page.getByLabel(text('en', 'admin.login.password')).fill(E2E.admin.password);
  await page.getByRole('button', { name: text('en', 'admin.login.submit') }).click();
  await expect(page).toHaveURL(/\/admin\/registrationlinkgenerator$/);
  const cookie = (await context.cookies()).find((c) => c.name === '__Host-acq_admin');
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

  await page.getByLabel(text('en', 'admin.linkGenerator.code')).fill(spent.code.toLowerCase());
  await page.getByRole('button', { name: text('en', 'admin.linkGenerator.submit') }).click();
  // One message, for the operator, next to the field.
  await expect(page.getByText(text('en', 'admin.linkGenerator.codeNoBalance'))).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByLabel(text('en', 'admin.linkGenerator.code')).fill('nope-nope');
  await page.getByRole('button', { name: text('en', 'admin.linkGenerator.submit') }).click();
  await expect(page.getByText(text('en', 'validation.accessCodeInvalid'))).toBeVisible();

  await page.getByLabel(text('en', 'admin.linkGenerator.code')).fill(linkOnly.code.toLowerCase());
  await page.getByRole('button', { name: text('en', 'admin.linkGenerator.submit') }).click();
  const link = (await page.getByTestId('generated-link').textContent()) ?? '';
  expect(link).toMatch(new RegExp(`\\?rc=${linkOnly.code}&validityTimestamp=\\d+\\.[A-Za-z0-9_-]+$`));
  const days = (Number(/validityTimestamp=(\d+)/.exec(link)?.[1]) * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(13.9);
  expect(days).toBeLessThanOrEqual(14);

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: text('en', 'admin.linkGenerator.copy') }).click();
  await expect(page.getByRole('status').filter({ hasText: text('en', 'admin.linkGenerator.copied') })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // The link opens the invitation; an edited expiry does not.
  const path = new URL(link).pathname + new URL(link).search;
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'variant.default.headline', { inviterName: linkOnly.inviter }));
  await page.goto(path.replace(/validityTimestamp=(\d+)/, (_, s: string) => `validityTimestamp=${Number(s) + 86_400 * 30}`));
  await expect(page.getByRole('alert')).toHaveText(text('en', 'invitation.invalid'));

  await page.goto('/admin/registrationlinkgenerator');
  await page.getByRole('button', { name: text('en', 'admin.logout') }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto('/admin/splitgenerator');
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=/);
});

test('a sign-in never sends the browser somewhere else', async ({ page }) => {
  await page.goto('/admin/login?redirectTo=https%3A%2F%2Fevil.example%2F');
  await page.getByLabel(text('en', 'admin.login.email')).fill(E2E.admin.email);
  await page.getByLabel(text('en', 'admin.login.password')).fill(E2E.admin.password);
  await page.getByRole('button', { name: text('en', 'admin.login.submit') }).click();
  await expect(page).toHaveURL(`${E2E.base}/admin/registrationlinkgenerator`);
});

test('an admin with a second factor signs in with a code from the authenticator app or a recovery code (German)', async ({ page }) => {
  const admin = await adminWithSecondFactor('operator');
  await page.goto('/de/admin/login');
  await page.getByLabel(text('de', 'admin.login.email')).fill(admin.email);
  await page.getByLabel(text('de', 'admin.login.password')).fill(admin.password);
  await page.getByRole('button', { name: text('de', 'admin.login.submit') }).click();

  // The password alone is not enough: the second step asks for the code, and says what it is.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'admin.secondFactor.title'));
  const code = page.getByLabel(text('de', 'admin.secondFactor.code'));
  await expect(code).toHaveAccessibleDescription(text('de', 'admin.secondFactor.hint'));
  await expect(code).toBeFocused();
  await page.getByRole('button', { name: text('de', 'admin.secondFactor.submit') }).click();
  await expect(page.getByText(text('de', 'admin.secondFactor.missing'))).toBeVisible();
  await code.fill('000000');
  await page.getByRole('button', { name: text('de', 'admin.secondFactor.submit') }).click();
  await expect(page.getByText(text('de', 'admin.secondFactor.invalid'))).toBeVisible();
  await expect(code).toHaveValue('');

  // A recovery code, typed as people type them, signs in once.
  await code.fill(admin.recoveryCodes[0]!.toLowerCase().replaceAll('-', ' '));
  await page.getByRole('button', { name: text('de', 'admin.secondFactor.submit') }).click();
  await expect(page).toHaveURL(/\/de\/admin\/registrationlinkgenerator$/);
});

test.describe('the security page, as a Polish admin in Warsaw on a phone', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw', viewport: { width: 390, height: 844 } });

  test('turns on two-step sign-in with a QR code and a first code, shows the recovery codes once, and changes the password', async ({ page }) => {
    const admin = await newAdmin('support');
    await page.goto('/pl/admin/login?redirectTo=%2Fpl%2Fadmin%2Fsecurity');
    await page.getByLabel(text('pl', 'admin.login.email')).fill(admin.email);
    await page.getByLabel(text('pl', 'admin.login.password')).fill(admin.password);
    await page.getByRole('button', { name: text('pl', 'admin.login.submit') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('pl', 'admin.security.title'));
    await expect(page.getByText(text('pl', 'admin.security.role', { role: text('pl', 'admin.roles.support') }))).toBeVisible();
    await expect(page.getByText(text('pl', 'admin.security.secondFactorOff'))).toBeVisible();

    await page.getByRole('button', { name: text('pl', 'admin.security.start') }).click();
    await expect(page.getByRole('img', { name: text('pl', 'admin.security.qr') })).toBeVisible();
    expect(await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    const code = page.getByLabel(text('pl', 'admin.secondFactor.code'));
    await code.fill('123456');
    await page.getByRole('button', { name: text('pl', 'admin.security.confirm') }).click();
    await expect(page.getByText(text('pl', 'admin.secondFactor.invalid'))).toBeVisible();
    // The same set-up stays on the page after a wrong code.
    await expect(page.getByTestId('totp-secret')).toHaveText(secret);
    await code.fill(new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate());
    await page.getByRole('button', { name: text('pl', 'admin.security.confirm') }).click();
    await expect(page.getByRole('status').filter({ hasText: text('pl', 'admin.security.enabled') })).toBeVisible();
    const recovery = page.getByTestId('recovery-codes').getByRole('listitem');
    await expect(recovery).toHaveCount(10);
    const firstCode = (await recovery.first().textContent()) ?? '';
    await page.reload();
    await expect(page.getByText(text('pl', 'admin.security.secondFactorOn'))).toBeVisible();
    await expect(page.getByTestId('recovery-codes')).toHaveCount(0);

    // A wrong current password changes nothing; the right one signs the admin out everywhere.
    await page.getByLabel(text('pl', 'admin.security.currentPassword')).fill('not my password!');
    await page.getByLabel(text('pl', 'admin.security.newPassword')).fill('a brand new long password');
    await page.getByRole('button', { name: text('pl', 'admin.security.changePassword') }).click();
    await expect(page.getByText(text('pl', 'admin.password.currentWrong'))).toBeVisible();
    await page.getByLabel(text('pl', 'admin.security.currentPassword')).fill(admin.password);
    await page.getByLabel(text('pl', 'admin.security.newPassword')).fill('a brand new long password');
    await page.getByRole('button', { name: text('pl', 'admin.security.changePassword') }).click();
    await expect(page).toHaveURL(/\/pl\/admin\/login\?changed=1$/);
    await expect(page.getByRole('status').filter({ hasText: text('pl', 'admin.login.passwordChanged') })).toBeVisible();

    // The new password, then a recovery code: signed in again.
    await page.getByLabel(text('pl', 'admin.login.email')).fill(admin.email);
    await page.getByLabel(text('pl', 'admin.login.password')).fill('a brand new long password');
    await page.getByRole('button', { name: text('pl', 'admin.login.submit') }).click();
    await page.getByLabel(text('pl', 'admin.secondFactor.code')).fill(firstCode);
    await page.getByRole('button', { name: text('pl', 'admin.secondFactor.submit') }).click();
    // Support makes no links: their first page is the invitations.
    await expect(page).toHaveURL(/\/pl\/admin\/codes$/);
  });
});

test('the audit log shows an owner who signed in, failed sign-ins included, and is closed to a viewer (German)', async ({ page }) => {
  const owner = await newAdmin('owner');
  const viewer = await newAdmin('viewer');
  const signIn = async (email: string, password: string) => {
    await page.goto('/de/admin/login');
    await page.getByLabel(text('de', 'admin.login.email')).fill(email);
    await page.getByLabel(text('de', 'admin.login.password')).fill(password);
    await page.getByRole('button', { name: text('de', 'admin.login.submit') }).click();
  };
  await signIn(owner.email, 'not the password');
  await expect(page.getByRole('alert')).toHaveText(text('de', 'admin.login.invalid'));
  await signIn(owner.email, owner.password);
  await expect(page).toHaveURL(/\/de\/admin\/registrationlinkgenerator$/);
  await page.getByRole('navigation', { name: text('de', 'admin.nav.label') }).getByRole('link', { name: text('de', 'admin.nav.audit') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'admin.audit.title'));
  await page.getByLabel(text('de', 'admin.audit.actor'), { exact: true }).fill(owner.email);
  await page.getByRole('button', { name: text('de', 'admin.audit.search') }).click();
  await expect(page).toHaveURL(new RegExp(`actor=${encodeURIComponent(owner.email)}`));
  const rows = page.getByRole('table').getByRole('row');
  // Header, then newest first: the sign-in, then the failed attempt before it.
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('admin.signed-in');
  await expect(rows.nth(2)).toContainText('admin.sign-in-failed');
  expect(await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);

  await page.getByRole('button', { name: text('de', 'admin.logout') }).click();
  await expect(page).toHaveURL(/\/de\/admin\/login$/);
  await signIn(viewer.email, viewer.password);
  // A viewer makes no links: their first page is the invitations.
  await expect(page).toHaveURL(/\/de\/admin\/codes$/);
  await expect(page.getByRole('link', { name: text('de', 'admin.nav.security') })).toBeVisible();
  await expect(page.getByRole('link', { name: text('de', 'admin.nav.audit') })).toHaveCount(0);
  await page.goto('/de/admin/audit');
  await expect(page.getByRole('alert')).toHaveText(text('de', 'admin.forbidden'));
  await expect(page.getByRole('table')).toHaveCount(0);
});

test('an owner creates a support admin, changes the role and disables them after a confirmation (Swedish)', async ({ page }) => {
  const owner = await newAdmin('owner');
  await page.goto('/sv/admin/login?redirectTo=%2Fsv%2Fadmin%2Fadmins');
  await page.getByLabel(text('sv', 'admin.login.email')).fill(owner.email);
  await page.getByLabel(text('sv', 'admin.login.password')).fill(owner.password);
  await page.getByRole('button', { name: text('sv', 'admin.login.submit') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('sv', 'admin.admins.title'));

  // Bad input changes nothing and says why, in the visitor's language.
  const newAdminForm = page.getByRole('region', { name: text('sv', 'admin.admins.new') });
  await newAdminForm.getByLabel(text('sv', 'admin.login.email')).fill('not an address');
  await newAdminForm.getByRole('button', { name: text('sv', 'admin.admins.create') }).click();
  await expect(newAdminForm.getByText(text('sv', 'validation.email'))).toBeVisible();
  await expect(newAdminForm.getByText(text('sv', 'validation.role'))).toBeVisible();

  const email = `support-${Date.now().toString(36)}@velvetrope.test`;
  await newAdminForm.getByLabel(text('sv', 'admin.login.email')).fill(email);
  await newAdminForm.getByLabel(text('sv', 'admin.admins.role')).selectOption('support');
  await newAdminForm.getByRole('button', { name: text('sv', 'admin.admins.create') }).click();
  await expect(page.getByText(text('sv', 'admin.admins.created', { email }))).toBeVisible();
  await expect(page.getByTestId('new-admin-password')).toHaveText(/^[\w-]{24}$/);

  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: email }) });
  await row.getByLabel(text('sv', 'admin.admins.roleOf', { email })).selectOption('viewer');
  await row.getByRole('button', { name: text('sv', 'admin.admins.change') }).click();
  await expect(row.getByLabel(text('sv', 'admin.admins.roleOf', { email }))).toHaveValue('viewer');

  // Disabling asks first.
  await row.getByRole('button', { name: text('sv', 'admin.admins.disable') }).click();
  const confirm = page.getByRole('alertdialog', { name: text('sv', 'admin.admins.disableQuestion', { email }) });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: text('sv', 'admin.admins.disableConfirm') }).click();
  await expect(row.getByRole('cell', { name: text('sv', 'admin.admins.disabled') })).toBeVisible();

  // (The last active owner cannot be demoted or disabled: apps/api/test/admin-console.test.ts, where the test owns the database.)
  expect(await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);
});

