import { expect, test, text } from './support.ts';

test('switching language stays in the app, keeps the query and remembers the choice', async ({ page, context }) => {
  await page.goto('/about-us?utm_source=newsletter&next=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc');
  await page.evaluate(() => {
    (window as unknown as { marker: string }).marker = 'same-document';
  });
  await page.getByRole('navigation', { name: text('en', 'footer.language') }).getByRole('link', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(/\/de\/about-us\?utm_source=newsletter&next=https%3A%2F%2Fexample\.com%2Fa%3Fb%3Dc$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'about.title'));
  await expect(page).toHaveTitle(text('de', 'meta.aboutUs.title'));
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same-document');
  const cookie = (await context.cookies()).find((c) => c.name === 'lang');
  expect(cookie?.value).toBe('de');
  expect(cookie?.sameSite).toBe('Lax');

  // The unprefixed start page now speaks German because of the cookie.
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});

test('an unprefixed page follows cookie, then ?lang, then the browser languages', async ({ browser }) => {
  const baseURL = test.info().project.use.baseURL;
  const swedish = await browser.newContext({ baseURL, locale: 'sv-SE' });
  const page = await swedish.newPage();
  await page.goto('/stores');
  await expect(page.locator('html')).toHaveAttribute('lang', 'sv');
  await page.goto('/stores?lang=it');
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await swedish.addCookies([{ name: 'lang', value: 'pl', url: baseURL ?? '' }]);
  await page.goto('/stores?lang=it');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await swedish.close();
});

test('acqParams are unpacked back into the address', async ({ page, invitation }) => {
  const packed = Buffer.from(`rc=${invitation.code}&utm_campaign=spring`).toString('base64url');
  await page.goto(`/?acqParams=${packed}`);
  await expect(page).toHaveURL(new RegExp(`/\\?rc=${invitation.code}&utm_campaign=spring$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'landing.headline.default', { inviterName: invitation.inviter }));
});

test('a hash link scrolls to its section and a new page starts at the top', async ({ page }) => {
  await page.goto('/#faq');
  await expect(page.getByRole('heading', { name: text('en', 'faq.title') })).toBeInViewport();
  await page.getByRole('contentinfo').getByRole('link', { name: text('en', 'footer.about') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'about.title'));
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});
