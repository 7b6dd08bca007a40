import { E2E } from '../../playwright.config.ts';
import { expect, test } from './support.ts';

test('pages carry a nonce-based CSP and the usual security headers', async ({ request }) => {
  const response = await request.get('/');
  const headers = response.headers();
  const csp = headers['content-security-policy'] ?? '';
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-powered-by']).toBeUndefined();
  const html = await response.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  // A fresh nonce for every response.
  const again = (await request.get('/')).headers()['content-security-policy'];
  expect(again).not.toContain(nonce);
});

test('a cross-site form post is refused, even with a valid code', async ({ request, invitation }) => {
  const response = await request.post('/', {
    form: { code: invitation.code },
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
});

test('the browser runs the page under the CSP without violations', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto('/de/about-us');
  await page.getByRole('link', { name: 'Français' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  expect(violations).toEqual([]);
});

test('acquisition defaults are served for the browser app', async ({ request }) => {
  const body = (await (await request.get('/acquisition-defaults.json')).json()) as Record<string, unknown>;
  expect(body.environment).toBe('local');
  expect(body.acqBackendGraphqlURL).toBe(E2E.browserGraphql);
});
