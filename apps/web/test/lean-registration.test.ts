/**
 * The lean registration's second step shows the spec's own text variant, "leanRegistration
 * step 2" (spec §3 text variants of the registration page), not the one-step form's generic
 * "Your registration" (issue 20 §3): the real web server (pages compiled by Vite) and the real
 * API as a child process, on loopback.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import type { Locale } from '@velvet/i18n/locales';
import { describe, expect, it } from 'vitest';
import { insertCode } from '../../api/test/support/factories.ts';
import { productForTests, visitPage } from './support/product.ts';

const product = productForTests();

/** The page's visible text (without the scripts, which carry messages of the catalog) and its h1. */
async function page(path: string, cookie = '') {
  const { status, text } = await visitPage(product, path, cookie ? { cookie } : {});
  return { status, text, h1: /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(text)?.[1] ?? null };
}

/** What the server writes into a page: `&` and `'` as entities, as React escapes them. */
const html = (message: string) => message.replace(/&/g, '&amp;').replace(/'/g, '&#x27;');

/** Lean step 1 sent as the visitor's browser sends it: the flow cookie it leaves, and where it leads. */
async function sendLeanStep1(prefix: string, code: string, email: string) {
  const step1 = await page(`${prefix}/registration/formstarted?rc=${code}&slug=lean`);
  const legalVersions = /name="legalVersions" value="(DE [^"]+)"/.exec(step1.text)?.[1] ?? '';
  const body = new URLSearchParams({ intent: 'lean-1', email, country: 'DE', termsAccepted: 'on', legalVersions });
  const response = await fetch(`${product.web.url}${prefix}/registration/formstarted?rc=${code}&slug=lean`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: product.web.url },
    body,
    redirect: 'manual',
  });
  const cookie = response.headers.getSetCookie().map((entry) => entry.split(';')[0]).join('; ');
  return { location: response.headers.get('location'), cookie };
}

describe('lean registration, step 2', { timeout: 60_000 }, () => {
  it.each([['en', ''], ['de', '/de'], ['fr', '/fr'], ['pl', '/pl']] as [Locale, string][])(
    '%s: shows the leanRegistration step 2 text in the visitor\'s language, naming the address the link goes to',
    async (locale, prefix) => {
      const { code } = await insertCode(product.database.db, { balance: 5, inviterFirstName: 'Lena' });
      const email = `lean-step-2-${locale}@example.com`;
      const { location, cookie } = await sendLeanStep1(prefix, code, email);
      expect(location).toBe(`${prefix}/registration/formstarted?rc=${code}&slug=lean&step=2`);

      const step2 = await page(location ?? '', cookie);
      expect(step2.status).toBe(200);
      expect(step2.h1).toBe(html(catalogs[locale]['variant.leanRegistration.step2.headline']!));
      expect(step2.text).toContain(html(catalogs[locale]['variant.leanRegistration.step2.text']!.replace('{email}', email)));
      expect(step2.text).not.toContain(`>${html(catalogs[locale]['registration.title']!)}<`);
      expect(step2.text).not.toContain(html(catalogs[locale]['registration.lead']!));

      // Step 1 keeps the registration page's own texts.
      const step1 = await page(`${prefix}/registration/formstarted?rc=${code}&slug=lean`, cookie);
      expect(step1.h1).toBe(html(catalogs[locale]['registration.title']!));
    },
  );
});
