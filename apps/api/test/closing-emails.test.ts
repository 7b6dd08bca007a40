/**
 * The emails that close each loop (issue 22 §2, ADR 058), on SQLite and PostgreSQL: an application
 * and a joined waiting list are confirmed, an activation brings the welcome voucher — each queued
 * in the transaction of its write, once, rendered in the person's language with the imprint.
 */
import { describe, expect, it } from 'vitest';
import { signLobbyToken } from '@velvet/tokens/signed-token';
import { createLogger } from '../src/logger.ts';
import { renderOutboxEmail } from '../src/mail/email-templates.ts';
import { OutboxWorker } from '../src/mail/outbox-worker.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { ACTIVATE, REGISTER, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';

const APPLY = 'mutation apply($email: String!, $language: String) { applyForMembership(email: $email, language: $language) { accepted } }';
const JOIN = 'mutation join($token: String!, $language: String) { joinWaitlist(token: $token, language: $language) { outcome } }';
const LEAVE = 'mutation leave($reference: String!) { leaveWaitlist(reference: $reference) { outcome } }';

const GERMAN_IMPRINT = 'Velvet Rope GmbH · Maximilianstraße 12 · 80539\u00a0München · Deutschland';

describe.each(ENGINES)('the emails that close each loop on %s', (engine) => {
  const { database, api } = engineApi(engine);

  const queued = (recipient: string) =>
    database.db.selectFrom('email_outbox').select(['template', 'locale', 'payload']).where('recipient', '=', recipient).orderBy('created_at').execute();
  const render = (row: { template: string; locale: string; payload: string }) =>
    renderOutboxEmail(row, { publicUrl: 'https://club.example', secret: TEST_SECRET });

  it('confirms a membership application once, in its language, with the imprint', async () => {
    const email = uniqueEmail('applicant');
    await graphql(api.yoga, APPLY, { variables: { email, language: 'de' } });
    await graphql(api.yoga, APPLY, { variables: { email, language: 'fr' } });
    const rows = await queued(email);
    expect(rows.map((r) => [r.template, r.locale])).toEqual([['application-received', 'de']]);
    const mail = await render(rows[0]!);
    expect(mail.subject).toBe('Wir haben Ihre Anfrage erhalten');
    expect(mail.text).toContain('Ihre Mitgliedschaftsanfrage ist bei uns eingegangen.');
    expect(mail.text).toContain(GERMAN_IMPRINT);
    expect(mail.text).toContain('Handelsregister: Amtsgericht München, HRB 000000');
    expect(mail.html).toContain('https://www.velvetrope.example/imprint');
  });

  it('confirms a place on the waiting list once, with a short link that takes the address off the list once', async () => {
    const email = uniqueEmail('waiting');
    const token = await signLobbyToken({ email }, TEST_SECRET, 3600);
    expect((await graphql(api.yoga, JOIN, { variables: { token, language: 'it' } })).body).toEqual({ data: { joinWaitlist: { outcome: 'JOINED' } } });
    await graphql(api.yoga, JOIN, { variables: { token, language: 'sv' } });
    const rows = await queued(email);
    expect(rows.map((r) => [r.template, r.locale])).toEqual([['waitlist-joined', 'it']]);

    const mail = await render(rows[0]!);
    expect(mail.subject).toBe('Sei in lista d’attesa per Velvet Rope');
    const link = /https:\/\/club\.example\/it\/waitlist\/leave\?ref=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(link?.[0]).toHaveLength('https://club.example/it/waitlist/leave?ref='.length + 22);
    expect(mail.html).toContain(link![0]);
    const reference = link![1]!;
    // Stored as its hash only: neither the entry nor the outbox row holds the reference.
    const entry = await database.db.selectFrom('waitlist_entries').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(JSON.stringify([entry, rows])).not.toContain(reference);

    const leave = async (ref: string) => (await graphql<{ leaveWaitlist: { outcome: string } }>(api.yoga, LEAVE, { variables: { reference: ref } })).body;
    expect(await leave(`${reference.slice(0, -1)}${reference.endsWith('A') ? 'B' : 'A'}`)).toEqual({ data: { leaveWaitlist: { outcome: 'NOT_FOUND' } } });
    expect(await leave('not a reference')).toEqual({ data: { leaveWaitlist: { outcome: 'NOT_FOUND' } } });
    expect(await leave(reference)).toEqual({ data: { leaveWaitlist: { outcome: 'LEFT' } } });
    expect(await database.db.selectFrom('waitlist_entries').select('id').where('email', '=', email).execute()).toEqual([]);
    expect(await leave(reference)).toEqual({ data: { leaveWaitlist: { outcome: 'NOT_FOUND' } } });
  });

  it('sends the welcome voucher after activation, once, with the code, value, minimum and validity the page shows', async () => {
    api.clock.fix('2026-11-20T09:00:00.000Z');
    const { code } = await insertCode(database.db, { balance: 5, customization: 'social-20-percent-mov' });
    const email = uniqueEmail('welcome');
    await graphql(api.yoga, REGISTER, { variables: { input: validInput(code, { email, language: 'de' }) } });
    const activationId = await latestActivationId(database.db, email);
    api.clock.fix('2026-11-24T17:45:12.345Z');
    type Voucher = { code: string; percent: number; minimumOrderValue: number | null };
    const first = await graphql<{ activateAccount: { voucher: Voucher | null } }>(api.yoga, ACTIVATE, { variables: { activationId } });
    await graphql(api.yoga, ACTIVATE, { variables: { activationId } });
    const voucher = first.body.data?.activateAccount.voucher;
    expect(voucher).toMatchObject({ percent: 20, minimumOrderValue: 150 });

    const rows = await queued(email);
    expect(rows.map((r) => [r.template, r.locale])).toEqual([['activation', 'de'], ['welcome', 'de']]);
    const mail = await render(rows[1]!);
    expect(mail.subject).toBe('Willkommen bei Velvet Rope: 20\u00a0% auf Ihre erste Bestellung');
    expect(mail.text).toContain('Guten Tag Zoë,');
    expect(mail.text).toContain(
      ['Ihr Willkommensgutschein', '20\u00a0% Rabatt auf Ihre erste Bestellung', 'Ab einem Bestellwert von 150\u00a0€', 'Gültig bis 8. Dezember 2026', `Gutscheincode:\n${voucher!.code}`].join('\n'),
    );
    expect(mail.html).toContain(voucher!.code);
    expect(mail.html).toContain('href="https://www.velvetrope.example/login"');
    expect(mail.text).toContain(GERMAN_IMPRINT);
  });

  it('names the company the COMPANY_* settings give in every email, the placeholder only where none is set', async () => {
    const email = uniqueEmail('imprint');
    await graphql(api.yoga, APPLY, { variables: { email, language: 'fr' } });
    const env = testEnv({
      PUBLIC_URL: 'https://club.example',
      COMPANY_NAME: 'Beispiel Handels AG',
      COMPANY_STREET: 'Teststraße 1',
      COMPANY_POSTAL_CODE: '1010',
      COMPANY_CITY: 'Wien',
      COMPANY_COUNTRY: 'at',
      COMPANY_REGISTER: 'Handelsgericht Wien, FN 000000x',
      COMPANY_EMAIL: 'Service@Example.test',
    });
    const sent: { to: string; html: string; text: string }[] = [];
    const transport = { kind: 'smtp' as const, send: async (mail: { to: string; html: string; text: string }) => void sent.push(mail), close: async () => undefined };
    const worker = new OutboxWorker({ db: database.db, transport, env, logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), random: () => 0 });
    await worker.runOnce();
    const mail = sent.find((m) => m.to === email);
    if (!mail) throw new Error('no mail');
    // In the reader's language (French: "Autriche"); the directors, not set, keep the placeholder's.
    expect(mail.text).toContain('Beispiel Handels AG · Teststraße 1 · 1010\u00a0Wien · Autriche');
    expect(mail.text).toContain('Handelsgericht Wien, FN 000000x');
    expect(mail.text).toContain('service@example.test');
    expect(mail.text).toContain('Clara Weiss, Jonas Berg');
    expect(mail.html).toContain('Beispiel Handels AG');
    expect(mail.text).not.toContain('Velvet Rope GmbH');
  });

  it('refuses a country that is not a two-letter code', () => {
    expect(() => testEnv({ COMPANY_COUNTRY: 'Austria' })).toThrow(/COMPANY_COUNTRY/);
  });
});
