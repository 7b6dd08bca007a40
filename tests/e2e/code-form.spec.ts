import { E2E } from '../../playwright.config.ts';
import { VIP, blockInviter, createInvitation, registerPending } from './support/data.ts';
import { dataLayerEvents, expect, test, text } from './support.ts';

test.describe('"Your code is the key"', () => {
  test('asks for a code, refuses a bad one, and opens the invitation of a good one', async ({ page, invitation }) => {
    await page.goto('/');
    const code = page.getByLabel(text('en', 'landing.code.label'));
    const submit = page.getByRole('button', { name: text('en', 'landing.code.submit') });

    await submit.click();
    await expect(page.getByText(text('en', 'validation.accessCodeMissing'))).toBeVisible();
    await expect(code).toHaveAttribute('aria-invalid', 'true');

    await code.fill('no spaces allowed');
    await submit.click();
    await expect(page.getByText(text('en', 'validation.accessCodeInvalid'))).toBeVisible();

    await code.fill('UNKNOWN-CODE');
    await submit.click();
    await expect(page.getByText(text('en', 'validation.accessCodeInvalid'))).toBeVisible();
    await expect(code).toHaveValue('UNKNOWN-CODE');

    await code.fill(` ${invitation.code.toLowerCase()} `);
    await submit.click();
    await expect(page).toHaveURL(new RegExp(`/\\?rc=${invitation.code}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'variant.default.headline', { inviterName: invitation.inviter }));
    await expect(page.getByRole('link', { name: text('en', 'signup.email') })).toHaveAttribute('href', `/registration/formstarted?rc=${invitation.code}`);
  });

  test('an error clears as soon as the visitor types, and nothing is posted until the button', async ({ page }) => {
    await page.goto('/');
    const code = page.getByLabel(text('en', 'landing.code.label'));
    await page.getByRole('button', { name: text('en', 'landing.code.submit') }).click();
    await expect(page.getByText(text('en', 'validation.accessCodeMissing'))).toBeVisible();
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await code.pressSequentially('WELC');
    await expect(page.getByText(text('en', 'validation.accessCodeMissing'))).toHaveCount(0);
    await expect(code).not.toHaveAttribute('aria-invalid', 'true');
    expect(posts.filter((url) => !url.includes('/entrance/'))).toEqual([]);
  });

  test('speaks German under /de, with and without JavaScript', async ({ browser }) => {
    const vip = await createInvitation(VIP);
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${E2E.base}/de`);
      await page.getByRole('button', { name: text('de', 'landing.code.submit') }).click();
      await expect(page.getByText(text('de', 'validation.accessCodeMissing'))).toBeVisible();
      await page.getByLabel(text('de', 'landing.code.label')).fill(vip.code);
      await page.getByRole('button', { name: text('de', 'landing.code.submit') }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'variant.voucher.headline', { inviterName: vip.inviter, percent: '15' }));
      await context.close();
    }
  });

  test('says why an invitation link cannot be used', async ({ page }) => {
    const [expired, spent, full, blocked, linkOnly, valid] = await Promise.all([
      createInvitation({ inviter: 'Marc', expires: '2025-12-31T23:59:59Z' }),
      createInvitation({ inviter: 'Julia', balance: 0 }),
      createInvitation({ inviter: 'Lukas', balance: 1 }),
      createInvitation({ inviter: 'Eva' }),
      createInvitation({ linkOnly: true }),
      createInvitation(),
    ]);
    // Lukas's one place is taken by a registration still waiting for activation; Eva is blocked.
    await Promise.all([registerPending(full.code), blockInviter(blocked)]);
    await page.goto(`/?rc=${expired.code}`);
    await expect(page.getByRole('alert')).toHaveText(text('en', 'invitation.expired'));
    // Spec §8's tracked error events, on the page where the visitor meets the refusal.
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing', 'error_registration_code_expired']);
    await page.goto(`/it?rc=${spent.code}`);
    await expect(page.getByRole('alert')).toHaveText(text('it', 'invitation.noBalance', { inviterName: spent.inviter }));
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing', 'error_registration_code_no_balance']);
    await page.goto(`/nl?rc=${full.code}`);
    await expect(page.getByRole('alert')).toHaveText(text('nl', 'invitation.noBalance', { inviterName: full.inviter }));
    await page.goto(`/pl?rc=${blocked.code}`);
    await expect(page.getByRole('alert')).toHaveText(text('pl', 'invitation.invalid'));
    await page.goto(`/sv?rc=${linkOnly.code}`);
    await expect(page.getByRole('alert')).toHaveText(text('sv', 'invitation.invalidLink'));
    await expect.poll(() => dataLayerEvents(page)).toEqual(['landing', 'error_registration_timestamp_missing']);
    await page.goto(`/fr?rc=${valid.code}&validityTimestamp=1.tampered`);
    await expect(page.getByRole('alert')).toHaveText(text('fr', 'invitation.invalid'));
  });
});

test('when the API is unreachable the page still renders and says so, translated', async ({ page, invitation }) => {
  // A real invitation: the outage is the only reason it cannot be opened.
  const response = await page.goto(`${E2E.down}/de?rc=${invitation.code}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('alert')).toHaveText(text('de', 'error.generic'));
  await page.getByLabel(text('de', 'landing.code.label')).fill(invitation.code);
  await page.getByRole('button', { name: text('de', 'landing.code.submit') }).click();
  await expect(page.getByRole('alert')).toHaveText(text('de', 'error.generic'));
});
