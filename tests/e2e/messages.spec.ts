/**
 * What visitors read is exact and consistent (issue 8 §2): one message per problem, the
 * spec's messages for what people really type, every text of a campaign page following the
 * invitation's customization, and a waiting-list block that leads to the waiting list.
 */
import { E2E } from '../../playwright.config.ts';
import { createInvitation } from './support/data.ts';
import { lobbyLinkIn, uniqueEmail, waitForMail } from './support/mail.ts';
import { expect, test, text, waitForHydration } from './support.ts';

test.describe('one message per problem', () => {
  test('a blank access code says only that it is missing', async ({ page }) => {
    await page.goto('/de');
    await page.getByLabel(text('de', 'landing.code.label')).fill('   ');
    await page.getByRole('button', { name: text('de', 'landing.code.submit') }).click();
    const messages = page.locator('#code-form-code-error p');
    await expect(messages).toHaveText([text('de', 'validation.accessCodeMissing')]);
    await expect(page.getByText(text('de', 'validation.accessCodeInvalid'))).toHaveCount(0);
  });

  test('markup in the access code asks for valid characters', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel(text('en', 'landing.code.label')).fill('<script>');
    await page.getByRole('button', { name: text('en', 'landing.code.submit') }).click();
    await expect(page.locator('#code-form-code-error p')).toHaveText([text('en', 'validation.invalidCharacters')]);
  });

  test('names made of spaces are missing names, in the visitor’s language, with and without JavaScript', async ({ browser }) => {
    const invitation = await createInvitation();
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled, locale: 'de' });
      const page = await context.newPage();
      await page.goto(`/registration/formstarted?rc=${invitation.code}`);
      if (javaScriptEnabled) await waitForHydration(page);
      await page.getByLabel(text('de', 'registration.firstName'), { exact: true }).fill('   ');
      await page.getByLabel(text('de', 'registration.lastName'), { exact: true }).fill(' \t ');
      await page.getByLabel(text('de', 'registration.email')).fill(`${'a'.repeat(60)}@${'b'.repeat(200)}.example`);
      await page.getByRole('button', { name: text('de', 'registration.submit') }).click();
      await expect(page.getByText(text('de', 'validation.firstName'), { exact: true })).toBeVisible();
      await expect(page.getByText(text('de', 'validation.lastName'), { exact: true })).toBeVisible();
      await expect(page.getByText(text('de', 'validation.emailTooLong'), { exact: true })).toBeVisible();
      await expect(page.getByText(text('de', 'validation.email'), { exact: true })).toHaveCount(0);
      await expect(page.getByText(/Invalid input|expected string/)).toHaveCount(0);
      await context.close();
    }
  });

  test('an empty admin sign-in is one message, and not a claim about the password', async ({ page }) => {
    await page.goto('/admin/login');
    await page.getByRole('button', { name: text('en', 'admin.login.submit') }).click();
    await expect(page.getByRole('alert')).toHaveText(text('en', 'admin.login.missing'));
    await expect(page.getByText(text('en', 'admin.login.invalid'))).toHaveCount(0);
    await expect(page.getByText(text('en', 'validation.email'))).toHaveCount(0);

    await page.getByLabel(text('en', 'admin.login.email')).fill(E2E.admin.email);
    await page.getByRole('button', { name: text('en', 'admin.login.submit') }).click();
    await expect(page.getByText(text('en', 'admin.login.passwordMissing'))).toBeVisible();
    await expect(page.getByText(text('en', 'admin.login.invalid'))).toHaveCount(0);
  });
});

test('an expired invitation typed by hand is an expired invitation, not an expired link', async ({ page }) => {
  const invitation = await createInvitation({ inviter: 'Marc', expires: '2025-12-31T23:59:59Z' });
  await page.goto('/fr');
  await page.getByLabel(text('fr', 'landing.code.label')).fill(invitation.code);
  await page.locator('#code').getByRole('button', { name: text('fr', 'landing.code.submit') }).click();
  await expect(page.getByRole('alert')).toHaveText(text('fr', 'deny.expired'));
  await expect(page.getByText(text('fr', 'invitation.expired'))).toHaveCount(0);
});

test('every text of a campaign page follows the invitation: 15 % with a minimum order value, in German', async ({ page }) => {
  const invitation = await createInvitation({ inviter: 'Anna', customization: 'social-15-percent-mov', slug: 'vip' });
  await page.goto(`/de/vip?rc=${invitation.code}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'variant.voucher.headline', { inviterName: 'Anna', percent: '15' }));
  const benefits = page.getByRole('region', { name: text('de', 'benefits.title') });
  await expect(benefits.getByRole('heading', { level: 3 }).nth(1)).toHaveText(text('de', 'benefits.firstOrder.title', { percent: '15' }));
  await expect(benefits).toContainText(text('de', 'benefits.firstOrder.textMov', { minimum: '100\u00a0€' }));
  await expect(page.locator('main')).not.toContainText(text('de', 'benefits.firstOrder.title', { percent: '10' }));
});

test('the landing page’s waiting-list block emails the way to the waiting list to the address given', async ({ page }) => {
  const email = uniqueEmail('waitlist-block');
  await page.goto('/nl');
  const block = page.getByRole('region', { name: text('nl', 'loginBlock.title') });
  await expect(block.getByRole('heading', { name: text('nl', 'waitlistBlock.title') })).toBeVisible();
  await block.getByLabel(text('nl', 'registration.email')).fill('not an address');
  await block.getByRole('button', { name: text('nl', 'lobby.join') }).click();
  await expect(block.getByText(text('nl', 'validation.email'))).toBeVisible();

  await block.getByLabel(text('nl', 'registration.email')).fill(email);
  await block.getByRole('button', { name: text('nl', 'lobby.join') }).click();
  // Whoever typed the address does not get the lobby: its owner does, by email (ADR 029).
  await expect(block.getByRole('status')).toHaveText(text('nl', 'waitlistBlock.sent', { email }));
  await expect(page).not.toHaveURL(/lobby/);
  const [mail] = await waitForMail(email);
  expect(mail!.subject).toBe(text('nl', 'email.lobby.subject'));
  // A short link, one line in any mail client: a 22-character reference, not a signed token (ADR 060).
  const link = new URL(lobbyLinkIn(mail!));
  expect(`${link.pathname}${link.search}`).toMatch(/^\/nl\/lobby\?token=[A-Za-z0-9_-]{22}$/);
  expect(`${link.pathname}${link.search}`.length).toBeLessThan(80);
  await page.goto(link.href);
  await expect(page).toHaveURL(/\/nl\/lobby\?token=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('nl', 'lobby.title'));
  await expect(page.getByText(text('nl', 'lobby.consent', { email }))).toBeVisible();
  await page.getByRole('button', { name: text('nl', 'lobby.join') }).click();
  await expect(page.getByRole('status')).toHaveText(text('nl', 'lobby.joined'));
});
