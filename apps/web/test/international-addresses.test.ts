/**
 * Internationalised addresses through the pages (issue 20 §3, ADR 042): the real web server
 * (pages compiled by Vite) and the real API as a child process, on loopback. An address whose
 * domain is in another script registers — one step or lean — and the page echoes it as the
 * visitor wrote it while the API keeps its ASCII form; letters beyond ASCII before the @ are
 * refused on the form, in the visitor's language, with the message that says why.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import { describe, expect, it } from 'vitest';
import { insertCode } from '../../api/test/support/factories.ts';
import { productForTests, visitPage } from './support/product.ts';

const product = productForTests();

/** The page's visible text (without the scripts, which carry messages of the catalog). */
const page = (path: string, cookie = '') => visitPage(product, path, cookie ? { cookie } : {});

/** A form sent as a browser without JavaScript sends it: where it leads, the cookies it leaves, the page it answers. */
async function post(path: string, fields: Record<string, string>, cookie = '') {
  const response = await fetch(`${product.web.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: product.web.url, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  const cookies = response.headers.getSetCookie().map((entry) => entry.split(';')[0]).join('; ');
  const text = (await response.text()).replace(/<script\b[\s\S]*?<\/script>/g, '');
  return { status: response.status, location: response.headers.get('location'), cookie: cookies || cookie, text };
}

async function legalVersions(path: string): Promise<string> {
  return /name="legalVersions" value="(DE [^"]+)"/.exec((await page(path)).text)?.[1] ?? '';
}

const memberEmails = async (codeId: string) =>
  (await product.database.db.selectFrom('members').select('email').where('registration_code_id', '=', codeId).execute()).map((m) => m.email);

describe('internationalised addresses on the forms', { timeout: 60_000 }, () => {
  it('one step: anna@müller.de registers, the API keeps anna@xn--mller-kva.de, and "check your inbox" names anna@müller.de', async () => {
    const { id, code } = await insertCode(product.database.db, { balance: 5 });
    const form = `/de/registration/formstarted?rc=${code}`;
    const fields = { intent: 'one-step', gender: 'FEMALE', firstName: 'Anna', lastName: 'Müller', email: 'Anna@Müller.de', country: 'DE', termsAccepted: 'on', legalVersions: await legalVersions(form) };
    const sent = await post(form, fields);
    expect(sent.location).toBe('/de/registration/formfinished');
    expect(await memberEmails(id)).toEqual(['anna@xn--mller-kva.de']);

    const finished = await page(sent.location ?? '', sent.cookie);
    expect(finished.text).toContain(catalogs.de['formFinished.email']!.replace('{email}', 'anna@müller.de'));
    expect(finished.text).not.toContain('xn--');
  });

  it('lean: jan@żółw.pl typed in step 1 is named in step 2 and on "check your inbox" as typed; the member is jan@xn--w-uga1v8h.pl', async () => {
    const { id, code } = await insertCode(product.database.db, { balance: 5 });
    const form = `/de/registration/formstarted?rc=${code}&slug=lean`;
    const step1 = await post(form, { intent: 'lean-1', email: 'jan@żółw.pl', country: 'DE', termsAccepted: 'on', legalVersions: await legalVersions(form) });
    expect(step1.location).toBe(`${form}&step=2`);
    const step2Page = await page(step1.location ?? '', step1.cookie);
    expect(step2Page.text).toContain('jan@żółw.pl');
    expect(step2Page.text).not.toContain('xn--');

    const step2 = await post(step1.location ?? '', { intent: 'lean-2', gender: 'MALE', firstName: 'Jan', lastName: 'Kowalski' }, step1.cookie);
    expect(step2.location).toBe('/de/registration/formfinished');
    expect(await memberEmails(id)).toEqual(['jan@xn--w-uga1v8h.pl']);
    expect((await page(step2.location ?? '', step2.cookie)).text).toContain(catalogs.de['formFinished.email']!.replace('{email}', 'jan@żółw.pl'));
  });

  it('the landing page\'s waiting list sends the link to ewa@żółw.pl and says so as she wrote it', async () => {
    const answer = await post('/de?index', { intent: 'waitlist', email: 'ewa@żółw.pl' });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(catalogs.de['waitlistBlock.sent']!.replace('{email}', 'ewa@żółw.pl'));
    const outbox = await product.database.db.selectFrom('email_outbox').select('recipient').where('recipient', '=', 'ewa@xn--w-uga1v8h.pl').execute();
    expect(outbox).toHaveLength(1);
  });

  it('müller@example.com is refused on every form that takes an address, saying why, in the visitor\'s language; nothing is written', async () => {
    const { id, code } = await insertCode(product.database.db, { balance: 5 });
    const oneStep = `/fr/registration/formstarted?rc=${code}`;
    const lean = `/pl/registration/formstarted?rc=${code}&slug=lean`;
    const answers = [
      ['fr', await post(oneStep, { intent: 'one-step', gender: 'MALE', firstName: 'Jörg', lastName: 'Müller', email: 'müller@example.com', country: 'DE', termsAccepted: 'on', legalVersions: await legalVersions(oneStep) })],
      ['pl', await post(lean, { intent: 'lean-1', email: 'łukasz@example.com', country: 'DE', termsAccepted: 'on', legalVersions: await legalVersions(lean) })],
      ['sv', await post('/sv/membership-interest/apply', { email: 'åsa@example.com' })],
      ['de', await post('/de?index', { intent: 'waitlist', email: 'jürgen@example.com' })],
    ] as const;
    for (const [locale, answer] of answers) {
      expect(answer.status, locale).toBe(200);
      expect(answer.location, locale).toBeNull();
      expect(answer.text, locale).toContain(catalogs[locale]['validation.emailInternationalLocalPart']!.replace(/'/g, '&#x27;'));
    }
    expect(await memberEmails(id)).toEqual([]);
    expect(await product.database.db.selectFrom('membership_applications').select('email').execute()).toEqual([]);
  });
});
