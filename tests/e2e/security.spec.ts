import { createHash } from 'node:crypto';
import { E2E } from '../../playwright.config.ts';
import { expect, test } from './support.ts';

test('pages carry a hash-based CSP naming every inline script, and the usual security headers', async ({ request }) => {
  const response = await request.get('/');
  const headers = response.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toMatch(/nonce|unsafe-inline/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-powered-by']).toBeUndefined();
  const html = await response.text();
  // Every script the page runs inline (not a JSON data block) is named by its digest; nothing carries a nonce.
  const inline = [...html.matchAll(/<script(?![^>]*\s(?:src=|type="application\/json"))[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  expect(inline.length).toBeGreaterThan(2);
  const named = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
  expect(new Set(named)).toEqual(new Set(inline.map((script) => createHash('sha256').update(script).digest('base64'))));
  expect(html).not.toMatch(/\bnonce=/);
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
