/**
 * Applicants hear back (issue 24 §1, ADR 063), on SQLite and PostgreSQL: an operator declines with
 * the owner's reason — the decline kept without the address, the email queued and the audit
 * written in one transaction, or none of it; only roles that decide may; the owner alone writes
 * the reasons and the cool-down; the same address applying within the cool-down is told when it
 * may apply again and nothing is written; the status link says where a person stands, with an
 * honest expected wait (none without enough data), and withdraws or leaves.
 */
import { randomUUID } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { signLobbyToken } from '@velvet/tokens/signed-token';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect.ts';
import { privacySubject } from '../src/domain/privacy-subject.ts';
import { renderOutboxEmail } from '../src/mail/email-templates.ts';
import { pruneDeclines } from '../src/jobs/retention.ts';
import { declineApplicants } from '../src/services/application-decisions.ts';
import { adminCalls } from './support/admin-calls.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET } from './support/env.ts';
import { graphql } from './support/graphql.ts';
import { uniqueEmail } from './support/registration.ts';

const APPLY = 'mutation a($email: String!, $language: String) { applyForMembership(email: $email, language: $language) { accepted reapplyAfter userErrors { code } } }';
const JOIN = 'mutation j($token: String!, $language: String) { joinWaitlist(token: $token, language: $language) { outcome } }';
const DECLINE = 'mutation d($ids: [String!]!, $reasonId: String!) { applicantsDecline(ids: $ids, reasonId: $reasonId) { declined userErrors { code field messageId } } }';
const REASONS = '{ declineReasons { id texts { en de pl } } applicationCooldownDays }';
const SAVE_REASON = 'mutation s($input: DeclineReasonInput!) { declineReasonSave(input: $input) { reason { id position texts { de } } userErrors { code field messageId } } }';
const COOLDOWN = 'mutation c($days: Int!) { applicationCooldownSet(days: $days) { cooldownDays userErrors { code field messageId } } }';
const HISTORY = 'query h($email: String!) { applicantHistory(email: $email) { kind reasonId reason decidedBy reapplyAfter } }';
const STATUS = 'query s($reference: String!) { applicationStatus(reference: $reference) { state onWaitlist expectedWaitDays reason reapplyAfter canWithdraw } }';
const WITHDRAW = 'mutation w($reference: String!) { withdrawByStatus(reference: $reference) { outcome } }';
const DECLINES =
  'query l($reasonId: String, $day: String, $first: Int, $after: String) { applicationDeclines(reasonId: $reasonId, day: $day, first: $first, after: $after) ' +
  '{ entries { declinedAt reasonId reason decidedBy reapplyAfter language } nextCursor } }';
const SELECT = 'mutation s($ids: [String!]!) { applicantsSelect(ids: $ids) { invited userErrors { code } } }';
const INVITE = 'mutation i($ids: [String!]!) { waitlistInvite(ids: $ids) { invited userErrors { code } } }';

const TEXTS = { en: 'Text', de: 'Text', fr: 'Texte', it: 'Testo', nl: 'Tekst', pl: 'Tekst', sv: 'Text' };

describe.each(ENGINES)('declining applicants and the status link on %s', (engine) => {
  const { database, api } = engineApi(engine);
  const { call, signedIn } = adminCalls(api, database);

  const apply = (email: string, language = 'de') => call<{ applyForMembership: { accepted: boolean; reapplyAfter: string | null } }>(APPLY, null, { email, language });
  const applicationId = async (email: string) =>
    (await database.db.selectFrom('membership_applications').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const outbox = (recipient: string) =>
    database.db.selectFrom('email_outbox').select(['template', 'locale', 'payload']).where('recipient', '=', recipient).orderBy('created_at').execute();
  const render = (row: { template: string; locale: string; payload: string }) => renderOutboxEmail(row, { publicUrl: 'https://club.example', secret: TEST_SECRET });
  /** The reference of the status link in an email of `recipient` (the `index`th). */
  async function statusReference(recipient: string, index = 0): Promise<string> {
    const mail = await render((await outbox(recipient))[index]!);
    const match = /https:\/\/club\.example(?:\/[a-z]{2})?\/status\?ref=([A-Za-z0-9_-]{22})/.exec(mail.text);
    if (!match) throw new Error(`no status link in ${mail.subject}`);
    expect(mail.html).toContain(match[0]);
    return match[1]!;
  }
  const standing = async (reference: string) => (await call<{ applicationStatus: Record<string, unknown> | null }>(STATUS, null, { reference })).data!.applicationStatus;

  it('declines with the reason in the applicant’s language: kept without the address, the email queued and audited, the status link telling', async () => {
    api.clock.fix('2026-11-20T10:00:00.000Z');
    const email = uniqueEmail('declined').toLowerCase();
    await apply(email, 'de');
    const received = await statusReference(email);
    expect(await standing(received)).toMatchObject({ state: 'RECEIVED', onWaitlist: false, canWithdraw: true });
    const id = await applicationId(email);

    api.clock.fix('2026-11-24T09:30:00.000Z');
    const operator = await signedIn('operator');
    const answer = await call<{ applicantsDecline: { declined: string[]; userErrors: unknown[] } }>(DECLINE, operator.token, { ids: [id], reasonId: 'reason-country' });
    expect(answer).toEqual({ data: { applicantsDecline: { declined: [email], userErrors: [] } } });

    // The application is gone; the decline keeps the pseudonym, never the address.
    expect(await database.db.selectFrom('membership_applications').select('id').where('email', '=', email).execute()).toEqual([]);
    const declines = await database.db.selectFrom('application_declines').selectAll().where('subject', '=', privacySubject(email, TEST_SECRET)).execute();
    expect(declines).toHaveLength(1);
    expect(declines[0]).toMatchObject({ reason_id: 'reason-country', decided_by_email: operator.email, language: 'de' });
    expect(JSON.stringify(declines)).not.toContain(email);
    expect(new Date(declines[0]!.reapply_after).toISOString()).toBe('2027-02-22T09:30:00.000Z');

    // The email: German, the reason as the owner wrote it, the way on, the date, and its own status link.
    const rows = await outbox(email);
    expect(rows.map((r) => [r.template, r.locale])).toEqual([['application-received', 'de'], ['application-declined', 'de']]);
    const mail = await render(rows[1]!);
    expect(mail.subject).toBe('Ihre Anfrage bei Velvet Rope');
    expect(mail.text).toContain('In Ihrem Land nehmen wir derzeit noch keine neuen Mitglieder auf.');
    expect(mail.text).toContain('Ab dem 22. Februar 2027 können Sie auch gern erneut anfragen.');
    // The way on is a short lobby link (ADR 060), and it lets the address join the waiting list.
    const lobby = /href="https:\/\/club\.example\/de\/lobby\?token=([A-Za-z0-9_-]{22})"/.exec(mail.html);
    expect(lobby).not.toBeNull();
    expect(mail.text).toContain(`https://club.example/de/lobby?token=${lobby![1]!}`);
    const declinedRef = await statusReference(email, 1);

    // Both links (the "received" email's and the decline's) now show the decision.
    for (const reference of [received, declinedRef]) {
      expect(await standing(reference)).toMatchObject({
        state: 'DECLINED',
        reason: 'In Ihrem Land nehmen wir derzeit noch keine neuen Mitglieder auf.',
        reapplyAfter: '2027-02-22T09:30:00.000Z',
        canWithdraw: false,
      });
    }

    // The audit log: who, when, which reason — the person by their pseudonym.
    const audit = await database.db.selectFrom('audit_log').select(['actor_email', 'target', 'details', 'at']).where('action', '=', 'applicants.declined').where('target', '=', privacySubject(email, TEST_SECRET)).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_email).toBe(operator.email);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ reasonId: 'reason-country' });

    // The applicant's history in the console, found by the address.
    const history = await call<{ applicantHistory: unknown[] }>(HISTORY, operator.token, { email });
    expect(history.data!.applicantHistory).toEqual([
      { kind: 'DECLINED', reasonId: 'reason-country', reason: 'We are not yet admitting new members in your country.', decidedBy: operator.email, reapplyAfter: '2027-02-22T09:30:00.000Z' },
      { kind: 'APPLIED', reasonId: null, reason: null, decidedBy: null, reapplyAfter: null },
    ]);

    // Declining again: the application is gone, nothing is sent twice.
    const again = await call<{ applicantsDecline: { declined: string[]; userErrors: { code: string }[] } }>(DECLINE, operator.token, { ids: [id], reasonId: 'reason-country' });
    expect(again.data!.applicantsDecline).toMatchObject({ declined: [], userErrors: [{ code: 'ENTRY_NOT_FOUND' }] });
    expect(await outbox(email)).toHaveLength(2);

    expect((await call(JOIN, null, { token: lobby![1]!, language: 'de' })).data).toEqual({ joinWaitlist: { outcome: 'JOINED' } });
  });

  it('writes the decline, its email and its audit record together, or none of them', async () => {
    const operator = await signedIn('operator');
    const email = uniqueEmail('atomic').toLowerCase();
    await apply(email, 'pl');
    const id = await applicationId(email);
    const before = await database.db.selectFrom('status_references').select(['hash', 'kind', 'target_id']).where('target_id', '=', id).execute();
    // The audit insert, last in the transaction, fails: the decline and its email must go with it.
    const failAudit: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'audit_log') throw new Error('audit log unavailable');
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const actor = { adminId: null, email: operator.email, clientAddress: null };
    await expect(declineApplicants({ db: database.db.withPlugin(failAudit) as Db, secret: TEST_SECRET }, actor, { ids: [id], reasonId: 'reason-capacity' })).rejects.toThrow(
      'audit log unavailable',
    );
    expect(await applicationId(email)).toBe(id);
    expect((await outbox(email)).map((r) => r.template)).toEqual(['application-received']);
    expect(await database.db.selectFrom('application_declines').select('id').where('subject', '=', privacySubject(email, TEST_SECRET)).execute()).toEqual([]);
    expect(await database.db.selectFrom('status_references').select(['hash', 'kind', 'target_id']).where('target_id', '=', id).execute()).toEqual(before);
  });

  it('lets only the roles that decide decline, and only the owner write the reasons and the cool-down', async () => {
    const email = uniqueEmail('roles').toLowerCase();
    await apply(email, 'en');
    const id = await applicationId(email);
    for (const role of ['viewer', 'support', 'privacy'] as const) {
      const { token } = await signedIn(role);
      const refused = await graphql(api.yoga, DECLINE, { variables: { ids: [id], reasonId: 'reason-capacity' }, headers: { authorization: `Bearer ${token}` } });
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      // Every role reads the reasons the decline offers.
      expect((await call<{ declineReasons: unknown[] }>(REASONS, token)).data!.declineReasons.length).toBeGreaterThanOrEqual(3);
    }
    expect(await applicationId(email)).toBe(id);
    expect((await outbox(email)).map((r) => r.template)).toEqual(['application-received']);

    const operator = await signedIn('operator');
    for (const [query, variables] of [
      [SAVE_REASON, { input: { ...TEXTS } }],
      [COOLDOWN, { days: 10 }],
    ] as const) {
      const refused = await graphql(api.yoga, query, { variables, headers: { authorization: `Bearer ${operator.token}` } });
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const anonymous = await graphql(api.yoga, DECLINE, { variables: { ids: [id], reasonId: 'reason-capacity' } });
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const owner = await signedIn('owner');
    const missing = await call<{ declineReasonSave: { userErrors: { code: string; field: string }[] } }>(SAVE_REASON, owner.token, { input: { ...TEXTS, pl: '  ' } });
    expect(missing.data!.declineReasonSave.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'pl', messageId: 'admin.decline.reason.textMissing' }]);
    const added = await call<{ declineReasonSave: { reason: { id: string; position: number } } }>(SAVE_REASON, owner.token, { input: { ...TEXTS, id: null, de: 'Neuer Grund' } });
    expect(added.data!.declineReasonSave.reason.position).toBeGreaterThan(3);
    const badDays = await call<{ applicationCooldownSet: { userErrors: { code: string }[] } }>(COOLDOWN, owner.token, { days: 0 });
    expect(badDays.data!.applicationCooldownSet.userErrors[0]?.code).toBe('INVALID_FIELD');
    expect((await call(COOLDOWN, owner.token, { days: 90 })).data).toEqual({ applicationCooldownSet: { cooldownDays: 90, userErrors: [] } });
    const actions = await database.db.selectFrom('audit_log').select('action').where('actor_email', '=', owner.email).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['applicants.reason-saved', 'applicants.cooldown-changed']));
  });

  it('answers a re-application within the cool-down with the date, writing nothing; after it, applies as new', async () => {
    api.clock.fix('2026-11-02T08:00:00.000Z');
    const operator = await signedIn('operator');
    const email = uniqueEmail('again').toLowerCase();
    await apply(email, 'sv');
    await call(DECLINE, operator.token, { ids: [await applicationId(email)], reasonId: 'reason-incomplete' });
    const counts = async () => ({
      applications: (await database.db.selectFrom('membership_applications').select('id').where('email', '=', email).execute()).length,
      outbox: (await outbox(email)).length,
      references: Number((await database.db.selectFrom('status_references').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    });
    const before = await counts();

    api.clock.fix('2026-12-15T08:00:00.000Z');
    // The same address, typed differently: the pseudonym is of the normalized address.
    expect((await apply(email.toUpperCase(), 'sv')).data).toEqual({ applyForMembership: { accepted: false, reapplyAfter: '2027-01-31T08:00:00.000Z', userErrors: [] } });
    expect(await counts()).toEqual(before);

    api.clock.fix('2027-01-31T08:00:01.000Z');
    expect((await apply(email, 'sv')).data).toEqual({ applyForMembership: { accepted: true, reapplyAfter: null, userErrors: [] } });
    expect((await counts()).applications).toBe(1);
    expect((await outbox(email)).map((r) => r.template)).toEqual(['application-received', 'application-declined', 'application-received']);
  });

  it('shows a waitlister where they stand by the link of their email, and lets them leave by it once', async () => {
    const email = uniqueEmail('waiting').toLowerCase();
    const token = await signLobbyToken({ email }, TEST_SECRET, 3600);
    await call(JOIN, null, { token, language: 'pl' });
    const reference = await statusReference(email);
    expect(await standing(reference)).toMatchObject({ state: 'WAITING', onWaitlist: true, canWithdraw: true });
    expect(await standing(`${reference.slice(0, -1)}${reference.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await standing('not a reference')).toBeNull();
    expect((await call(WITHDRAW, null, { reference })).data).toEqual({ withdrawByStatus: { outcome: 'LEFT' } });
    expect(await database.db.selectFrom('waitlist_entries').select('id').where('email', '=', email).execute()).toEqual([]);
    expect(await standing(reference)).toBeNull();
    expect((await call(WITHDRAW, null, { reference })).data).toEqual({ withdrawByStatus: { outcome: 'NOT_FOUND' } });

    // An applicant withdraws the same way.
    const applicant = uniqueEmail('withdraw').toLowerCase();
    await apply(applicant, 'it');
    expect((await call(WITHDRAW, null, { reference: await statusReference(applicant) })).data).toEqual({ withdrawByStatus: { outcome: 'WITHDRAWN' } });
    expect(await database.db.selectFrom('membership_applications').select('id').where('email', '=', applicant).execute()).toEqual([]);
  });

  it('gives an honest expected wait: none with too little data, else the people ahead over the last 30 days’ pace', async () => {
    // A quiet, distant stretch of time: nothing else was invited in these 30 days.
    api.clock.fix('2031-03-01T12:00:00.000Z');
    const email = uniqueEmail('estimate').toLowerCase();
    await call(JOIN, null, { token: await signLobbyToken({ email }, TEST_SECRET, 3600, new Date('2031-03-01T12:00:00.000Z')), language: 'pl' });
    const reference = await statusReference(email);
    const ahead = Number(
      (
        await database.db
          .selectFrom('waitlist_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('invited_at', 'is', null)
          .where('joined_at', '<', '2031-03-01T12:00:00.000Z')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(await standing(reference)).toMatchObject({ state: 'WAITING', expectedWaitDays: null });

    // Six invitations from the list in the last 30 days: a pace of 0.2 a day.
    const invited = Array.from({ length: 6 }, (_, i) => ({
      id: randomUUID(),
      email: uniqueEmail(`pace${i}`).toLowerCase(),
      language: 'en',
      joined_at: '2031-01-01T00:00:00.000Z',
      consent_at: '2031-01-01T00:00:00.000Z',
      invited_at: new Date(Date.parse('2031-02-05T00:00:00.000Z') + i * 86_400_000).toISOString(),
      registration_code_id: null,
    }));
    await database.db.insertInto('waitlist_entries').values(invited).execute();
    expect((await standing(reference))!.expectedWaitDays).toBe(Math.ceil((ahead + 1) / (6 / 30)));
  });

  it('lists every decline newest first, a page at a time, by reason and by day — who, why, when, until when, never an address; every role reads it', async () => {
    api.clock.fix('2040-05-10T09:00:00.000Z');
    const owner = await signedIn('owner');
    const added = await call<{ declineReasonSave: { reason: { id: string } } }>(SAVE_REASON, owner.token, { input: { ...TEXTS, id: null, en: 'Listed reason' } });
    const listed = added.data!.declineReasonSave.reason.id;
    const addresses: string[] = [];
    let operator = owner;
    const declineAt = async (at: string, reasonId: string) => {
      api.clock.fix(at);
      const email = uniqueEmail('listed').toLowerCase();
      addresses.push(email);
      await apply(email, 'pl');
      operator = await signedIn('operator');
      await call(DECLINE, operator.token, { ids: [await applicationId(email)], reasonId });
    };
    await declineAt('2040-05-10T09:00:00.000Z', listed);
    await declineAt('2040-05-11T10:00:00.000Z', listed);
    await declineAt('2040-05-11T11:00:00.000Z', 'reason-capacity');

    const viewer = await signedIn('viewer');
    type Listing = { applicationDeclines: { entries: { declinedAt: string; reasonId: string; reason: string; decidedBy: string; reapplyAfter: string }[]; nextCursor: string | null } };
    const list = async (variables: Record<string, unknown>) => {
      const body = await call<Listing>(DECLINES, viewer.token, variables);
      for (const address of addresses) expect(JSON.stringify(body)).not.toContain(address);
      return body.data!.applicationDeclines;
    };
    // Newest first: nothing in this file was declined later than these three.
    expect((await list({ first: 3 })).entries.map((e) => e.declinedAt)).toEqual(['2040-05-11T11:00:00.000Z', '2040-05-11T10:00:00.000Z', '2040-05-10T09:00:00.000Z']);
    const first = await list({ reasonId: listed, first: 1 });
    expect(first.entries).toEqual([
      { declinedAt: '2040-05-11T10:00:00.000Z', reasonId: listed, reason: 'Listed reason', decidedBy: expect.any(String), reapplyAfter: '2040-08-09T10:00:00.000Z', language: 'pl' },
    ]);
    expect(first.entries[0]!.decidedBy).toMatch(/^operator-/);
    expect(first.nextCursor).not.toBeNull();
    const second = await list({ reasonId: listed, first: 1, after: first.nextCursor });
    expect(second.entries.map((e) => e.declinedAt)).toEqual(['2040-05-10T09:00:00.000Z']);
    expect(second.nextCursor).toBeNull();
    expect((await list({ day: '2040-05-11' })).entries.map((e) => e.reasonId)).toEqual(['reason-capacity', listed]);
    expect((await list({ day: '2040-05-11', reasonId: listed })).entries).toHaveLength(1);
    expect((await list({ day: '2040-05-12' })).entries).toEqual([]);

    const anonymous = await graphql(api.yoga, DECLINES, { variables: {} });
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('keeps a decline through its cool-down and 90 days more, then the retention job deletes it with its status links', async () => {
    api.clock.fix('2042-01-10T12:00:00.000Z');
    const operator = await signedIn('operator');
    const email = uniqueEmail('pruned').toLowerCase();
    await apply(email, 'nl');
    api.clock.fix('2042-01-10T12:05:00.000Z');
    await call(DECLINE, operator.token, { ids: [await applicationId(email)], reasonId: 'reason-incomplete' });
    const reference = await statusReference(email, 1);
    const decline = await database.db.selectFrom('application_declines').select(['id', 'reapply_after']).where('subject', '=', privacySubject(email, TEST_SECRET)).executeTakeFirstOrThrow();
    const end = Date.parse(decline.reapply_after);
    const DAY = 86_400_000;

    // The cool-down still holds the address (and its history) until it ends, and 90 days after.
    await pruneDeclines(database.db, new Date(end + 90 * DAY - 1000));
    expect(await standing(reference)).toMatchObject({ state: 'DECLINED' });
    expect((await call<{ applicantHistory: { kind: string }[] }>(HISTORY, operator.token, { email })).data!.applicantHistory.map((e) => e.kind)).toEqual(['DECLINED', 'APPLIED']);

    expect(await pruneDeclines(database.db, new Date(end + 90 * DAY + 1000))).toBeGreaterThanOrEqual(1);
    expect(await database.db.selectFrom('application_declines').select('id').where('id', '=', decline.id).execute()).toEqual([]);
    expect(await database.db.selectFrom('status_references').select('hash').where('target_id', '=', decline.id).execute()).toEqual([]);
    expect(await standing(reference)).toBeNull();
    expect((await call<{ applicantHistory: unknown[] }>(HISTORY, operator.token, { email })).data!.applicantHistory).toEqual([]);
  });

  it('puts the status link in the invitation of a selected applicant and of an invited waitlister, and it says invited', async () => {
    const operator = await signedIn('operator');
    const applicant = uniqueEmail('selected').toLowerCase();
    await apply(applicant, 'de');
    const received = await statusReference(applicant);
    expect((await call(SELECT, operator.token, { ids: [await applicationId(applicant)] })).data).toEqual({ applicantsSelect: { invited: [applicant], userErrors: [] } });
    expect((await outbox(applicant)).map((r) => r.template)).toEqual(['application-received', 'invitation']);
    const invitation = await render((await outbox(applicant))[1]!);
    expect(invitation.text).toContain('Ihren Status sehen Sie jederzeit hier:');
    for (const reference of [received, await statusReference(applicant, 1)]) {
      expect(await standing(reference)).toMatchObject({ state: 'INVITED', onWaitlist: false, canWithdraw: false });
    }

    const waitlister = uniqueEmail('admitted').toLowerCase();
    await call(JOIN, null, { token: await signLobbyToken({ email: waitlister }, TEST_SECRET, 3600, api.clock()), language: 'pl' });
    const entry = await database.db.selectFrom('waitlist_entries').select('id').where('email', '=', waitlister).executeTakeFirstOrThrow();
    expect((await call(INVITE, operator.token, { ids: [entry.id] })).data).toEqual({ waitlistInvite: { invited: [waitlister], userErrors: [] } });
    expect((await outbox(waitlister)).map((r) => r.template)).toEqual(['waitlist-joined', 'invitation']);
    expect(await standing(await statusReference(waitlister, 1))).toMatchObject({ state: 'INVITED', onWaitlist: true, canWithdraw: false });
  });
});
