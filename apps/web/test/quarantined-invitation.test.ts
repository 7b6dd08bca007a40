/**
 * One stranger cannot shut a member's invitation, and a quarantined invitation's page says what
 * its registration will (issue 20 §2, ADR 054): the real web server (pages compiled by Vite) and
 * the real API as a child process, on loopback.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import { describe, expect, it } from 'vitest';
import { createRegistrationLink } from '../../api/src/domain/registration-link.ts';
import { TEST_SECRET } from '../../api/test/support/env.ts';
import { insertCode } from '../../api/test/support/factories.ts';
import { productForTests, visitPage } from './support/product.ts';

const product = productForTests();

/** A page as the visitor sees it: its status and its visible text (without the scripts, which carry messages of the catalog). */
const page = (path: string, headers: Record<string, string> = {}) => visitPage(product, path, headers);

const quarantinedAt = async (codeId: string) =>
  (await product.database.db.selectFrom('registration_codes').select('quarantined_at').where('id', '=', codeId).executeTakeFirstOrThrow()).quarantined_at;

describe('an invitation and the leak watch, through the pages', { timeout: 60_000 }, () => {
  it('a stranger opening the invitation from a web-mail page ten times does not shut it: the page still invites, and it is not quarantined', async () => {
    const { id, code } = await insertCode(product.database.db, { balance: 5, inviterFirstName: 'Henrike' });
    for (let i = 0; i < 10; i++) {
      const denied = await page(`/de?rc=${code}`, { referer: 'https://mail.google.com/mail/u/0/' });
      expect(denied.text).toContain(catalogs.de['deny.lead.referrer']);
    }
    expect(await quarantinedAt(id)).toBeNull();
    const landing = await page(`/de?rc=${code}`);
    expect(landing.text).toContain(catalogs.de['landing.code.accepted']);
    expect(landing.text).not.toContain(catalogs.de['landing.code.review']);
  });

  it('while the code is quarantined the landing page says the registration will wait for a check, in the visitor\'s language; the inviter\'s fresh link still says valid', async () => {
    const { id, code } = await insertCode(product.database.db, { balance: 5, inviterFirstName: 'Nora' });
    await product.database.db.updateTable('registration_codes').set({ quarantined_at: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', id).execute();
    for (const [prefix, locale] of [['/de', 'de'], ['/fr', 'fr'], ['/pl', 'pl']] as const) {
      const landing = await page(`${prefix}?rc=${code}`);
      expect(landing.status, prefix).toBe(200);
      expect(landing.text, prefix).toContain(catalogs[locale]['landing.code.review']);
      expect(landing.text, prefix).toContain(catalogs[locale]['formFinished.review.apply']);
      expect(landing.text, prefix).not.toContain(catalogs[locale]['landing.code.accepted']);
    }
    const fresh = new URL(createRegistrationLink({ publicUrl: 'https://club.example', code, secret: TEST_SECRET }).url);
    const invited = await page(`/de${fresh.search}`);
    expect(invited.text).toContain(catalogs.de['landing.code.accepted']);
    expect(invited.text).not.toContain(catalogs.de['landing.code.review']);
  });
});
