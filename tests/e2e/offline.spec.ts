/**
 * The visitor's own connection drops while a form is on its way (issue 20 §3, spec §8): the page
 * stays in their language with everything they typed, says to check the connection, and the
 * same press goes through once they are back online.
 */
import { createInvitation } from './support/data.ts';
import { expect, plain, test, text, waitForHydration } from './support.ts';

test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

test('a German visitor whose connection drops while sending the registration keeps the form as typed and sends it again', async ({ page, context, consoleErrors }) => {
  const invitation = await createInvitation();
  await page.goto(`/de/registration/formstarted?rc=${invitation.code}`);
  await waitForHydration(page);
  const email = `offline-${Date.now()}@example.com`;
  await page.getByLabel(text('de', 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text('de', 'registration.firstName'), { exact: true }).fill('Anna');
  await page.getByLabel(text('de', 'registration.lastName'), { exact: true }).fill('Schmidt');
  await page.getByLabel(text('de', 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain('de', 'registration.terms') }).check();
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await page.getByRole('button', { name: text('de', 'registration.submit') }).click();
  await expect(page.getByRole('alert')).toHaveText(text('de', 'error.connection'));
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(text('de', 'error.internal'));
  await expect(page.getByLabel(text('de', 'registration.firstName'), { exact: true })).toHaveValue('Anna');
  await expect(page.getByLabel(text('de', 'registration.email'))).toHaveValue(email);
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Deutsch' })).toBeVisible();
  // The browser's own notice of the request it could not send, and nothing else.
  expect(consoleErrors.every((message) => message.includes('net::ERR_INTERNET_DISCONNECTED'))).toBe(true);
  consoleErrors.length = 0;
  await context.setOffline(false);
  await page.getByRole('button', { name: text('de', 'registration.submit') }).click();
  await expect(page).toHaveURL(/\/de\/registration\/formfinished$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'formFinished.title'));
});

test.describe('in Warsaw', () => {
  test.use({ locale: 'pl-PL', timezoneId: 'Europe/Warsaw' });

  test('a Polish visitor typing the code offline keeps it, reads why in Polish, and goes on once back online', async ({ page, context, consoleErrors }) => {
    const invitation = await createInvitation();
    await page.goto('/pl');
    await waitForHydration(page);
    await page.getByLabel(text('pl', 'landing.code.label')).fill(invitation.code);
    await page.waitForLoadState('networkidle');
    await context.setOffline(true);
    await page.getByRole('button', { name: text('pl', 'landing.code.submit') }).first().click();
    await expect(page.getByText(text('pl', 'error.connection'))).toBeVisible();
    await expect(page.getByLabel(text('pl', 'landing.code.label'))).toHaveValue(invitation.code);
    expect(consoleErrors.every((message) => message.includes('net::ERR_INTERNET_DISCONNECTED'))).toBe(true);
    consoleErrors.length = 0;
    await context.setOffline(false);
    await page.getByRole('button', { name: text('pl', 'landing.code.submit') }).first().click();
    await expect(page).toHaveURL(new RegExp(`/pl\\?rc=${invitation.code}$`));
  });

});
