/**
 * The registration form's checks in the browser (issue 19 §5: a phone's page load carries no
 * Zod). The shared rules are fetched and run when the visitor starts on the form, not with the
 * page; a mistake is still answered at once, without a round trip. When the rules cannot be
 * had, the form goes to the server, which answers the same mistakes in the same words, as for a
 * browser without JavaScript: the visitor's click is never lost.
 */
import type { Page } from '@playwright/test';
import { expect, test, text, waitForHydration } from './support.ts';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const RULES = /\/assets\/client-validation-rules-[\w-]+\.js$/;

/** The requests the page makes for the rules' chunk, and the form posts it sends to its own page. */
function watch(page: Page) {
  const seen = { rules: 0, posts: 0 };
  page.on('request', (request) => {
    if (RULES.test(request.url())) seen.rules += 1;
    else if (request.method() === 'POST' && /\/registration\/formstarted(\.data)?$/.test(new URL(request.url()).pathname)) seen.posts += 1;
  });
  return seen;
}

test.describe('the registration form’s checks (pl, phone, Warsaw)', () => {
  test.use({ ...PHONE, locale: 'pl', timezoneId: 'Europe/Warsaw' });

  test('load when the visitor starts on the form, not with the page, and answer a mistake without a round trip', async ({ page, invitation }) => {
    const seen = watch(page);
    await page.goto(`/pl/registration/formstarted?rc=${invitation.code}`);
    await waitForHydration(page);
    expect(seen.rules, 'rules fetched with the page').toBe(0);

    await page.getByRole('textbox', { name: text('pl', 'registration.email'), exact: true }).fill('anna.kowalska@');
    await page.getByRole('button', { name: text('pl', 'registration.submit') }).click();
    await expect(page.getByText(text('pl', 'validation.email'), { exact: true })).toBeVisible();
    await expect(page.getByText(text('pl', 'validation.terms'), { exact: true })).toBeVisible();
    expect(seen.rules).toBe(1);
    expect(seen.posts, 'posts to the server').toBe(0);

    // As the visitor corrects the address, its error goes at once, still in the browser.
    await page.getByRole('textbox', { name: text('pl', 'registration.email'), exact: true }).fill('anna.kowalska@example.pl');
    await expect(page.getByText(text('pl', 'validation.email'), { exact: true })).toBeHidden();
    await expect(page.getByText(text('pl', 'validation.terms'), { exact: true })).toBeVisible();
    expect(seen.posts, 'posts to the server').toBe(0);
  });

  test('send the form to the server when the rules cannot be loaded: the same mistakes, in the same words', async ({ page, invitation, consoleErrors }) => {
    const seen = watch(page);
    await page.route(RULES, (route) => route.abort('connectionfailed'));
    await page.goto(`/pl/registration/formstarted?rc=${invitation.code}`);
    await waitForHydration(page);

    await page.getByRole('textbox', { name: text('pl', 'registration.email'), exact: true }).fill('anna.kowalska@');
    await page.getByRole('button', { name: text('pl', 'registration.submit') }).click();
    await expect(page.getByText(text('pl', 'validation.email'), { exact: true })).toBeVisible();
    await expect(page.getByText(text('pl', 'validation.terms'), { exact: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: text('pl', 'registration.email'), exact: true })).toHaveValue('anna.kowalska@');
    expect(seen.rules).toBeGreaterThanOrEqual(1);
    expect(seen.posts, 'posts to the server').toBe(1);
    // The browser reports the failed download; nothing else went wrong.
    expect(consoleErrors.every((message) => message.includes('net::ERR_CONNECTION_FAILED') || message.includes('client-validation-rules'))).toBe(true);
    consoleErrors.length = 0;
  });

  test('bring the checks back once the connection does: a failed download is asked for again, without a reload', async ({ page, invitation, consoleErrors }) => {
    const seen = watch(page);
    let failures = 0;
    // The visitor's connection drops as they start on the form: the first download fails.
    await page.route(RULES, (route) => (failures++ === 0 ? route.abort('internetdisconnected') : route.fallback()));
    await page.goto(`/pl/registration/formstarted?rc=${invitation.code}`);
    await waitForHydration(page);
    const email = page.getByRole('textbox', { name: text('pl', 'registration.email'), exact: true });

    await email.fill('anna.kowalska@');
    await page.getByRole('button', { name: text('pl', 'registration.submit') }).click();
    // Without the rules the server answered, as without JavaScript.
    await expect(page.getByText(text('pl', 'validation.email'), { exact: true })).toBeVisible();
    expect(seen.posts, 'posts to the server').toBe(1);

    // Back online: the next checks run in the browser again.
    await email.fill('anna.kowalska@example.pl');
    await expect(page.getByText(text('pl', 'validation.email'), { exact: true })).toBeHidden();
    await page.getByRole('button', { name: text('pl', 'registration.submit') }).click();
    await expect(page.getByText(text('pl', 'validation.terms'), { exact: true })).toBeVisible();
    await expect(email).toHaveValue('anna.kowalska@example.pl');
    expect(seen.rules).toBe(2);
    expect(seen.posts, 'posts to the server').toBe(1);
    expect(consoleErrors.every((message) => message.includes('net::ERR_INTERNET_DISCONNECTED') || message.includes('client-validation-rules'))).toBe(true);
    consoleErrors.length = 0;
  });
});
