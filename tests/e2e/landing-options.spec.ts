/**
 * The landing page options of spec §3 that change what a visitor sees: isLandingPageLoading
 * (the page says it is working while a code check or the pop-up loads, and nothing moves) and
 * sourcePath (the shop page the visitor came from is where "Shop now" leads once registered).
 */
import type { Page } from '@playwright/test';
import { createInvitation } from './support/data.ts';
import { activationLink, uniqueEmail, waitForMail } from './support/mail.ts';
import { expect, hold, plain, test, text, waitForHydration } from './support.ts';

/** Where every part of the code panel is, to prove that showing the loading state moves nothing. */
const panelLayout = (page: Page) =>
  page.locator('#code').evaluate((panel) =>
    [panel, ...panel.querySelectorAll('h2, p, a, button, input, form')].map((element) => {
      const box = element.getBoundingClientRect();
      return [Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)];
    }),
  );

test.describe('isLandingPageLoading', () => {
  test('the code check: the panel is busy and says so, and nothing moves', async ({ page }) => {
    const invitation = await createInvitation({ inviter: 'Clara' });
    await page.goto('/de');
    await waitForHydration(page);
    const panel = page.locator('#code');
    await expect(panel).toHaveAttribute('aria-busy', 'false');
    await page.getByLabel(text('de', 'landing.code.label')).fill(invitation.code);
    const before = await panelLayout(page);
    const check = await hold(page, (url) => url.pathname.endsWith('.data'), (route) => route.request().method() === 'POST');
    await page.getByRole('button', { name: text('de', 'landing.code.submit') }).click();
    await expect(panel).toHaveAttribute('aria-busy', 'true');
    await expect(panel.getByRole('status').filter({ hasText: text('de', 'landing.loading.code') })).toBeAttached();
    await expect(page.getByTestId('landing-loading').locator('div')).toBeVisible();
    expect(await panelLayout(page)).toEqual(before);
    expect(check.held()).toBe(1);
    check.release();
    await expect(page.getByRole('link', { name: text('de', 'signup.email') })).toBeVisible();
    await expect(panel).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('landing-loading-status')).toHaveText('');
  });

  test('the pop-up on its way: busy until the form is there', async ({ page }) => {
    const invitation = await createInvitation({ inviter: 'Clara' });
    const chunk = await hold(page, /\/assets\/popup-registration-[\w-]+\.js$/);
    await page.goto(`/viral?rc=${invitation.code}`);
    await waitForHydration(page);
    const panel = page.locator('#code');
    const before = await panelLayout(page);
    await page.getByRole('link', { name: text('en', 'signup.email') }).click();
    await expect(panel).toHaveAttribute('aria-busy', 'true');
    await expect(panel.getByRole('status').filter({ hasText: text('en', 'landing.loading.form') })).toBeAttached();
    expect(await panelLayout(page)).toEqual(before);
    chunk.release();
    await expect(page.getByRole('dialog', { name: text('en', 'registration.title') })).toBeVisible();
    await expect(panel).toHaveAttribute('aria-busy', 'false');
  });
});

test('sourcePath: the shop page a visitor came from is where "Shop now" leads once the account is active', async ({ page }) => {
  const invitation = await createInvitation({ inviter: 'Greta', customization: 'viralProductShare', slug: 'share' });
  const email = uniqueEmail('source-path');
  const piece = '/p/silk-slip-dress-8841?size=38';
  await page.goto(`/share?rc=${invitation.code}&sourcePath=${encodeURIComponent(piece)}`);
  const share = page.getByRole('dialog', { name: text('en', 'productShare.title') });
  await share.getByLabel(text('en', 'productShare.email')).fill(email);
  await share.getByRole('button', { name: text('en', 'productShare.submit') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'registration.title'));
  await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Greta');
  await page.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Ångström');
  await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'formFinished.title'));
  const [mail] = await waitForMail(email);
  await page.goto(activationLink(mail!));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'activation.welcomeTitle', { firstName: 'Greta' }));
  await expect(page.getByRole('link', { name: text('en', 'activation.shopNow') })).toHaveAttribute('href', `https://www.velvetrope.example${piece}`);
});

test('a sourcePath that is not a page of the shop is ignored: "Shop now" stays the login', async ({ page }) => {
  const invitation = await createInvitation({ inviter: 'Greta' });
  const email = uniqueEmail('source-path-hostile');
  await page.goto(`/?rc=${invitation.code}&sourcePath=${encodeURIComponent('//evil.example/login')}`);
  await page.getByRole('link', { name: text('en', 'signup.email') }).click();
  await page.getByLabel(text('en', 'registration.gender.female'), { exact: true }).check();
  await page.getByLabel(text('en', 'registration.firstName'), { exact: true }).fill('Greta');
  await page.getByLabel(text('en', 'registration.lastName'), { exact: true }).fill('Ångström');
  await page.getByLabel(text('en', 'registration.email')).fill(email);
  await page.getByRole('checkbox', { name: plain('en', 'registration.terms') }).check();
  await page.getByRole('button', { name: text('en', 'registration.submit') }).click();
  const [mail] = await waitForMail(email);
  await page.goto(activationLink(mail!));
  await expect(page.getByRole('link', { name: text('en', 'activation.shopNow') })).toHaveAttribute('href', 'https://www.velvetrope.example/login');
});

test('the newsletter has a short text as its label and the long one as its description, in a disclosure', async ({ page }) => {
  const invitation = await createInvitation({ inviter: 'Jonas' });
  await page.goto(`/de/registration/formstarted?rc=${invitation.code}`);
  await waitForHydration(page);
  const newsletter = page.getByRole('checkbox', { name: text('de', 'registration.newsletter') });
  await expect(newsletter).toHaveAccessibleDescription(text('de', 'registration.newsletterLong'));
  await expect(newsletter).not.toBeChecked();
  const long = page.getByText(text('de', 'registration.newsletterLong'));
  await expect(long).toBeHidden();
  await page.getByText(text('de', 'registration.newsletterMore')).click();
  await expect(long).toBeVisible();
  // Opening the text does not tick the box: the newsletter stays optional.
  await expect(newsletter).not.toBeChecked();
});
