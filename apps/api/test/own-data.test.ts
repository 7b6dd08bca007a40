/**
 * Pre-members own their data (issue 24 §2, ADR 066), on SQLite and PostgreSQL: the form emails a
 * "manage my data" link with the same answer for a known and an unknown address; the link shows
 * what is held, downloads it in the admin export's schema, withdraws newsletter consent (nothing
 * else), deletes it (consent proofs kept under the pseudonym, the person as the audit's actor);
 * it expires after 7 days; an active member's deletion and a free-text request become privacy
 * requests due in a month, which an operator marks done; the door's emails carry the link.
 */
import { randomUUID } from 'node:crypto';
import { PERSONAL_DATA_EXPORT_SCHEMA } from '@velvet/validation/admin-members';
import { describe, expect, it } from 'vitest';
import { privacySubject } from '../src/domain/privacy-subject.ts';
import { renderOutboxEmail } from '../src/mail/email-templates.ts';
import { adminCalls } from './support/admin-calls.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET } from './support/env.ts';
import { uniqueEmail } from './support/registration.ts';

const REQUEST = 'mutation r($email: String!, $language: String, $message: String) { requestDataLink(email: $email, language: $language, message: $message) { sent userErrors { code } } }';
const VIEW = 'query v($reference: String!) { ownData(reference: $reference) { state email document newsletter activeMember linkExpiresAt openRequestDueAt } }';
const EXPORT = 'mutation e($reference: String!) { ownDataExport(reference: $reference) { fileName document } }';
const ERASE = 'mutation x($reference: String!) { eraseOwnData(reference: $reference, language: "de") { outcome } }';
const NEWSLETTER = 'mutation n($reference: String!) { withdrawOwnNewsletter(reference: $reference) { outcome } }';
const APPLY = 'mutation a($email: String!, $language: String) { applyForMembership(email: $email, language: $language) { accepted } }';
const REQUESTS = '{ privacyRequests { id email kind message receivedAt dueAt doneAt } }';
const DONE = 'mutation d($id: String!) { markPrivacyRequestDone(id: $id) }';
const FROM_STATUS = 'mutation s($reference: String!) { dataLinkFromStatus(reference: $reference) { reference } }';

describe.each(ENGINES)('a pre-member’s own data on %s', (engine) => {
  const { database, api } = engineApi(engine);
  const { call, signedIn } = adminCalls(api, database);
  const db = () => database.db;

  const outbox = (recipient: string, template: string) =>
    db().selectFrom('email_outbox').select(['template', 'locale', 'payload']).where('recipient', '=', recipient).where('template', '=', template).orderBy('created_at').execute();
  /** The data link's reference in the newest data-link email of `recipient`. */
  async function emailedReference(recipient: string): Promise<string> {
    const rows = await outbox(recipient, 'data-link');
    const mail = await renderOutboxEmail(rows.at(-1)!, { publicUrl: 'https://club.example', secret: TEST_SECRET });
    const match = /https:\/\/club\.example(?:\/[a-z]{2})?\/my-data\?ref=([A-Za-z0-9_-]{22})/.exec(mail.text);
    if (!match) throw new Error(`no data link in ${mail.subject}`);
    expect(mail.html).toContain(match[0]);
    return match[1]!;
  }
  const request = (email: string, extra: Record<string, unknown> = {}) => call<{ requestDataLink: { sent: boolean; userErrors: unknown[] } }>(REQUEST, null, { email, language: 'de', ...extra });
  const view = async (reference: string) => (await call<{ ownData: Record<string, unknown> }>(VIEW, null, { reference })).data!.ownData;
  async function pendingMember(email: string, status: 'pending' | 'active' = 'pending') {
    await db()
      .insertInto('members')
      .values({ id: randomUUID(), email, first_name: 'Anna', last_name: 'Weber', gender: null, country: 'DE', language: 'de', status, registration_code_id: null, newsletter: true, created_at: api.clock().toISOString(), activated_at: null, place_held_until: null })
      .execute();
  }

  it('answers a known and an unknown address alike, and the link shows, downloads and deletes what is held, audited under the pseudonym', async () => {
    api.clock.fix('2026-11-20T10:00:00.000Z');
    const known = uniqueEmail('applicant').toLowerCase();
    const unknown = uniqueEmail('stranger').toLowerCase();
    expect((await call<{ applyForMembership: { accepted: boolean } }>(APPLY, null, { email: known, language: 'de' })).data!.applyForMembership.accepted).toBe(true);
    const answers = [await request(known), await request(unknown)];
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.data!.requestDataLink).toEqual({ sent: true, userErrors: [] });
    // Both get the same email; the stranger's page holds only that email.
    const strangerView = await view(await emailedReference(unknown));
    expect(strangerView).toMatchObject({ state: 'OK', email: unknown });
    expect(JSON.parse(strangerView.document as string)).toMatchObject({ registration: null, application: null, waitingList: null, emails: [{ template: 'data-link' }] });

    // At most 3 emails an hour to one address; beyond, the same answer and none.
    for (let i = 0; i < 3; i++) expect((await request(unknown)).data!.requestDataLink.sent).toBe(true);
    expect(await outbox(unknown, 'data-link')).toHaveLength(3);

    const reference = await emailedReference(known);
    const shown = await view(reference);
    expect(shown).toMatchObject({ state: 'OK', email: known, activeMember: false, newsletter: false });
    const document = JSON.parse(shown.document as string) as { schema: string; application: unknown };
    expect(document.schema).toBe(PERSONAL_DATA_EXPORT_SCHEMA);
    expect(document.application).not.toBeNull();

    const exported = (await call<{ ownDataExport: { fileName: string; document: string } }>(EXPORT, null, { reference })).data!.ownDataExport;
    expect(JSON.parse(exported.document)).toMatchObject({ schema: PERSONAL_DATA_EXPORT_SCHEMA, email: known });
    expect((await call<{ eraseOwnData: { outcome: string } }>(ERASE, null, { reference })).data!.eraseOwnData.outcome).toBe('ERASED');
    expect(await db().selectFrom('membership_applications').select('id').where('email', '=', known).execute()).toEqual([]);
    // The link went with the data; the consent proof stays under the pseudonym.
    expect((await view(reference)).state).toBe('INVALID');
    const subject = privacySubject(known, TEST_SECRET);
    const erasure = await db().selectFrom('privacy_erasures').select(['admin_user_id', 'kept']).where('subject', '=', subject).executeTakeFirstOrThrow();
    expect(erasure.admin_user_id).toBeNull();
    expect(JSON.parse(erasure.kept)).toEqual([expect.objectContaining({ kind: 'application' })]);
    const audit = await db().selectFrom('audit_log').select(['action', 'actor_email', 'actor_admin_id', 'target', 'details']).where('target', '=', subject).orderBy('seq').execute();
    expect(audit.map((a) => a.action)).toEqual(['privacy.exported', 'privacy.erased']);
    for (const entry of audit) {
      expect(entry).toMatchObject({ actor_email: subject, actor_admin_id: null });
      expect(JSON.stringify(entry)).not.toContain(known);
    }
  });

  it('withdraws newsletter consent and nothing else; the link expires after 7 days', async () => {
    api.clock.fix('2026-11-20T10:00:00.000Z');
    const email = uniqueEmail('invitee').toLowerCase();
    await pendingMember(email);
    await request(email);
    const reference = await emailedReference(email);
    expect(await view(reference)).toMatchObject({ newsletter: true, activeMember: false });
    expect((await call<{ withdrawOwnNewsletter: { outcome: string } }>(NEWSLETTER, null, { reference })).data!.withdrawOwnNewsletter.outcome).toBe('WITHDRAWN');
    const member = await db().selectFrom('members').select(['newsletter', 'first_name']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(member).toEqual({ newsletter: false, first_name: 'Anna' });
    expect((await call<{ withdrawOwnNewsletter: { outcome: string } }>(NEWSLETTER, null, { reference })).data!.withdrawOwnNewsletter.outcome).toBe('NOT_SUBSCRIBED');
    const audit = await db().selectFrom('audit_log').select(['action', 'actor_email']).where('target', '=', privacySubject(email, TEST_SECRET)).execute();
    expect(audit).toEqual([{ action: 'privacy.newsletter-withdrawn', actor_email: privacySubject(email, TEST_SECRET) }]);

    api.clock.fix('2026-11-27T10:00:01.000Z');
    expect((await view(reference)).state).toBe('EXPIRED');
    expect((await call<{ eraseOwnData: { outcome: string } }>(ERASE, null, { reference })).data!.eraseOwnData.outcome).toBe('NOT_FOUND');
    expect(await db().selectFrom('members').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });

  it('an active member’s deletion and a free-text request become privacy requests due in a month, marked done by an operator', async () => {
    api.clock.fix('2026-01-31T09:00:00.000Z');
    const member = uniqueEmail('member').toLowerCase();
    await pendingMember(member, 'active');
    await request(member, { message: 'Bitte auch meine Daten im Shop löschen.' });
    const reference = await emailedReference(member);
    expect((await call<{ eraseOwnData: { outcome: string } }>(ERASE, null, { reference })).data!.eraseOwnData.outcome).toBe('REQUESTED');
    expect(await db().selectFrom('members').select('id').where('email', '=', member).execute()).toHaveLength(1);
    expect(await view(reference)).toMatchObject({ activeMember: true, openRequestDueAt: expect.stringMatching(/^2026-03-0[23]/) });

    const { token } = await signedIn('privacy');
    const listed = (await call<{ privacyRequests: { id: string; email: string; kind: string; message: string | null; dueAt: string; doneAt: string | null }[] }>(REQUESTS, token)).data!.privacyRequests.filter(
      (r) => r.email === member,
    );
    expect(listed.map((r) => r.kind).sort()).toEqual(['erase-member', 'other']);
    expect(listed.find((r) => r.kind === 'other')!.message).toBe('Bitte auch meine Daten im Shop löschen.');
    const operator = await signedIn('support');
    expect((await call(REQUESTS, operator.token)).errors?.[0]).toBeDefined();
    expect((await call<{ markPrivacyRequestDone: boolean }>(DONE, token, { id: listed[0]!.id })).data!.markPrivacyRequestDone).toBe(true);
    expect((await call<{ markPrivacyRequestDone: boolean }>(DONE, token, { id: listed[0]!.id })).data!.markPrivacyRequestDone).toBe(false);
    const actions = await db().selectFrom('audit_log').select('action').where('target', '=', privacySubject(member, TEST_SECRET)).orderBy('seq').execute();
    expect(actions.map((a) => a.action)).toEqual(['privacy.request-received', 'privacy.request-received', 'privacy.request-done']);
  });

  it('the door’s emails carry a manage-my-data link in their footer, and the status page leads to one', async () => {
    api.clock.fix('2026-11-20T10:00:00.000Z');
    const email = uniqueEmail('footer').toLowerCase();
    await call(APPLY, null, { email, language: 'pl' });
    const [received] = await outbox(email, 'application-received');
    const mail = await renderOutboxEmail(received!, { publicUrl: 'https://club.example', secret: TEST_SECRET, dataReference: () => Promise.resolve('A'.repeat(22)) });
    expect(mail.text).toContain(`https://club.example/pl/my-data?ref=${'A'.repeat(22)}`);
    expect(mail.html).toContain(`https://club.example/pl/my-data?ref=${'A'.repeat(22)}`);
    const status = /\/status\?ref=([A-Za-z0-9_-]{22})/.exec(mail.text)![1]!;
    const link = (await call<{ dataLinkFromStatus: { reference: string | null } }>(FROM_STATUS, null, { reference: status })).data!.dataLinkFromStatus.reference;
    expect(await view(link!)).toMatchObject({ state: 'OK', email });
    expect((await call<{ dataLinkFromStatus: { reference: string | null } }>(FROM_STATUS, null, { reference: 'B'.repeat(22) })).data!.dataLinkFromStatus.reference).toBeNull();
  });
});
