import { E2E } from '../../playwright.config.ts';
import { adminWithSecondFactor, createInvitation } from './support/data.ts';
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

