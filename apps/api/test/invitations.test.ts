/**
 * Personal invitations from the waiting list and membership applications (the services
 * behind `waitlist invite` and `interest select`), on SQLite and PostgreSQL, delivered to a
 * real SMTP peer and used on the landing page.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import { describe, expect, it } from 'vitest';
import {
  PERSONAL_CODE_VALIDITY_DAYS,
  SYSTEM_INVITER_EMAIL,
  inviteFromWaitlist,
  listMembershipApplications,
  listWaitlist,
  selectMembershipApplication,
} from '../src/services/personal-invitations.ts';
import { signValidityTimestamp } from '../src/domain/registration-link.ts';
import { invitationUrl } from '../src/mail/links.ts';
import { createTestApi } from './support/api.ts';
import { ENGINES, engineDatabase } from './support/engines.ts';
import { testEnv } from './support/env.ts';
import { CHECK_CODE, graphql } from './support/graphql.ts';
import type { CodeDetails } from './support/graphql.ts';
import { REGISTER, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';
import { insertMember } from './support/factories.ts';
import { deliverAll, insertApplication, insertWaitlistEntry } from './support/invitations.ts';

const DAY_MS = 86_400_000;
const GERMAN_DATE = /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/;

describe.each(ENGINES)('personal invitations on %s', (engine) => {
  const database = engineDatabase(engine);
  const env = testEnv({ PUBLIC_URL: 'https://club.example' });

  it('invites the earliest uninvited entries: a personal code from "Velvet Rope" and an invitation email each', async () => {
    const db = database.db;
    const third = await insertWaitlistEntry(db, { joinedAt: '2026-03-03T00:00:00.000Z' });
    const first = await insertWaitlistEntry(db, { joinedAt: '2026-01-01T00:00:00.000Z', language: 'de' });
    const second = await insertWaitlistEntry(db, { joinedAt: '2026-02-02T00:00:00.000Z' });
    const now = new Date('2026-11-24T10:00:00.000Z');

    const invited = await inviteFromWaitlist(db, 2, now);
    expect(invited.map((i) => [i.email, i.language])).toEqual([
      [first, 'de'],
      [second, 'en'],
    ]);
    for (const invitation of invited) {
      const code = await db.selectFrom('registration_codes as rc')
        .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
        .select(['rc.code', 'rc.balance', 'rc.expires_at', 'rc.customization', 'rc.requires_validity_timestamp', 'inviter.first_name', 'inviter.email'])
        .where('rc.id', '=', invitation.codeId)
        .executeTakeFirstOrThrow();
      expect(code).toMatchObject({
        code: invitation.code,
        balance: 1,
        customization: 'default',
        requires_validity_timestamp: false,
        first_name: 'Velvet Rope',
        email: SYSTEM_INVITER_EMAIL,
      });
      expect(Date.parse(code.expires_at ?? '') - now.getTime()).toBe(PERSONAL_CODE_VALIDITY_DAYS * DAY_MS);
      const entry = await db.selectFrom('waitlist_entries').selectAll().where('email', '=', invitation.email).executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ invited_at: now.toISOString(), registration_code_id: invitation.codeId });
      const outbox = await db.selectFrom('email_outbox').selectAll().where('id', '=', invitation.outboxId).executeTakeFirstOrThrow();
      expect(outbox).toMatchObject({ recipient: invitation.email, template: 'invitation', locale: invitation.language, status: 'pending' });
      expect(JSON.parse(outbox.payload)).toEqual({ code: invitation.code, expiresAt: code.expires_at, reason: 'waitlist' });
    }

    // The rest, then nobody: no one is invited twice.
    expect((await inviteFromWaitlist(db, 5)).map((i) => i.email)).toEqual([third]);
    expect(await inviteFromWaitlist(db, 5)).toEqual([]);
    expect(await db.selectFrom('members').select('id').where('email', '=', SYSTEM_INVITER_EMAIL).execute()).toHaveLength(1);
    expect(await db.selectFrom('email_outbox').select('id').execute()).toHaveLength(3);
    expect((await listWaitlist(db)).map((r) => [r.email, r.invitedAt !== null])).toEqual([
      [first, true],
      [second, true],
      [third, true],
    ]);
  });

  it('sends the German entry a German email with its code and a /de/ link, and the code opens the door once', async () => {
    const db = database.db;
    const german = await insertWaitlistEntry(db, { joinedAt: '2026-01-01T00:00:00.000Z', language: 'de' });
    const english = await insertWaitlistEntry(db, { joinedAt: '2026-01-02T00:00:00.000Z', language: 'en' });
    const invited = await inviteFromWaitlist(db, 2);
    const received = await deliverAll(db, env, 2);
    const de = catalogs.de;
    const byRecipient = new Map(received.map((email) => [email.to[0], email]));

    const germanInvitation = invited.find((i) => i.email === german);
    const germanEmail = byRecipient.get(german);
    if (!germanInvitation || !germanEmail) throw new Error('no German invitation');
    // The person's own link, signed up to the code's expiry: it asks no proof of work (ADR 041).
    const validityTimestamp = signValidityTimestamp(germanInvitation.code, new Date(germanInvitation.expiresAt), env.APP_SECRET);
    const germanLink = `https://club.example/de/?rc=${germanInvitation.code}&validityTimestamp=${validityTimestamp}`;
    expect(de['email.invitation.subject']).not.toBe(catalogs.en['email.invitation.subject']);
    expect(germanEmail.subject).toBe(de['email.invitation.subject']);
    expect(germanEmail.html).toMatch(/<html[^>]* lang="de"/);
    expect(germanEmail.html).toContain(`href="${germanLink.replace('&', '&amp;')}"`);
    expect(germanEmail.html).toContain(de['email.invitation.button']);
    expect(germanEmail.text).toContain(de['email.invitation.greeting']);
    expect(germanEmail.text).toContain((de['email.invitation.code'] ?? '').replace('{code}', germanInvitation.code));
    expect(germanEmail.text).toContain(germanLink);
    expect(germanEmail.text).toContain(de['email.invitation.reasonWaitlist']);
    expect(germanEmail.text).toMatch(GERMAN_DATE);
    expect(germanEmail.html).not.toContain('<script');

    const englishInvitation = invited.find((i) => i.email === english);
    const englishEmail = byRecipient.get(english);
    expect(englishEmail?.subject).toBe(catalogs.en['email.invitation.subject']);
    expect(englishEmail?.text).toContain(`https://club.example/?rc=${englishInvitation?.code}&validityTimestamp=`);
    expect(englishEmail?.text).toContain('Your invitation is valid until');

    // The landing page: the code is valid, from "Velvet Rope"; it registers one person.
    const api = await createTestApi({ env, db });
    try {
      const { body } = await graphql<{ registrationCodeDetails: CodeDetails }>(api.yoga, CHECK_CODE, {
        variables: { registrationCode: germanInvitation.code.toLowerCase() },
      });
      expect(body.data?.registrationCodeDetails).toMatchObject({ errors: [], invitorName: 'Velvet Rope', customization: 'default' });
      expect(body.data?.registrationCodeDetails.countryOptions.length).toBeGreaterThan(0);
      const register = (email: string) =>
        graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, {
          variables: { input: validInput(germanInvitation.code, { email, language: 'de' }) },
        });
      expect((await register(german)).body.data?.register.outcome).toBe('FORM_FINISHED');
      expect((await register(uniqueEmail())).body.data?.register.userErrors.map((e) => e.code)).toEqual([
        'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS',
      ]);
    } finally {
      await api.close();
    }
  });

  it('never invites an entry twice when two operators invite at once', async () => {
    const db = database.db;
    for (let i = 0; i < 4; i++) await insertWaitlistEntry(db, { joinedAt: `2026-01-0${i + 1}T00:00:00.000Z` });
    // PostgreSQL: a second pool, as a second operator's process would have. SQLite: better-sqlite3
    // waits for a lock synchronously, which would stall this one process; two CLI processes are
    // tested in cli.test.ts, and in one process Kysely runs the transactions one after the other.
    const second = engine === 'postgres' ? database.connectAgain() : { db, close: async () => undefined };
    try {
      const [a, b] = await Promise.all([inviteFromWaitlist(db, 4), inviteFromWaitlist(second.db, 4)]);
      const emails = [...a, ...b].map((i) => i.email);
      expect(emails).toHaveLength(4);
      expect(new Set(emails).size).toBe(4);
    } finally {
      await second.close();
    }
    expect(await db.selectFrom('email_outbox').select('id').execute()).toHaveLength(4);
    expect(await db.selectFrom('members').select('id').where('email', '=', SYSTEM_INVITER_EMAIL).execute()).toHaveLength(1);
  });

  it('skips people who became active members meanwhile, on the list and for applicants; a pending registration is still invited', async () => {
    const db = database.db;
    const member = await insertWaitlistEntry(db, { joinedAt: '2026-01-01T00:00:00.000Z' });
    const pending = await insertWaitlistEntry(db, { joinedAt: '2026-01-02T00:00:00.000Z' });
    const waiting = await insertWaitlistEntry(db, { joinedAt: '2026-01-03T00:00:00.000Z' });
    await insertMember(db, { email: member, status: 'active' });
    await insertMember(db, { email: pending, status: 'pending' });

    expect((await listWaitlist(db)).map((r) => [r.email, r.isMember])).toEqual([
      [member, true],
      [pending, false],
      [waiting, false],
    ]);
    expect((await inviteFromWaitlist(db, 3)).map((i) => i.email)).toEqual([pending, waiting]);
    expect(await inviteFromWaitlist(db, 3)).toEqual([]);
    const entry = await db.selectFrom('waitlist_entries').select(['invited_at', 'registration_code_id']).where('email', '=', member).executeTakeFirstOrThrow();
    expect(entry).toEqual({ invited_at: null, registration_code_id: null });

    const applicant = await insertApplication(db);
    await insertMember(db, { email: applicant, status: 'active' });
    expect(await selectMembershipApplication(db, applicant)).toEqual({ ok: false, errors: [`${applicant} is already an active member: no invitation needed`] });
    const application = await db.selectFrom('membership_applications').select('selected_at').where('email', '=', applicant).executeTakeFirstOrThrow();
    expect(application.selected_at).toBeNull();
    expect(await db.selectFrom('email_outbox').select('recipient').orderBy('recipient').execute()).toEqual(
      [pending, waiting].sort().map((recipient) => ({ recipient })),
    );
  });

  it('selects an applicant once: a personal code and the invitation email in their language, with the interest reason', async () => {
    const db = database.db;
    const email = await insertApplication(db, { language: 'fr' });
    const selected = await selectMembershipApplication(db, ` ${email.toUpperCase()} `);
    if (!selected.ok) throw new Error(selected.errors.join());
    expect(selected.value).toMatchObject({ email, language: 'fr' });
    const row = await db.selectFrom('membership_applications').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.selected_at).not.toBeNull();
    expect(row.registration_code_id).toBe(selected.value.codeId);
    expect((await listMembershipApplications(db))[0]).toMatchObject({ email, selectedAt: row.selected_at });

    const [received] = await deliverAll(db, env, 1);
    const fr = catalogs.fr;
    expect(received?.subject).toBe(fr['email.invitation.subject']);
    expect(received?.text).toContain(fr['email.invitation.reasonInterest']);
    expect(received?.text).toContain(`https://club.example/fr/?rc=${selected.value.code}`);

    expect(await selectMembershipApplication(db, email)).toEqual({ ok: false, errors: [expect.stringContaining('already selected')] });
    expect(await selectMembershipApplication(db, 'nobody@example.test')).toEqual({
      ok: false,
      errors: ['no membership application from nobody@example.test'],
    });
    expect(await selectMembershipApplication(db, 'nope')).toEqual({ ok: false, errors: ['nope is not a valid email address'] });
    expect(await db.selectFrom('email_outbox').select('id').execute()).toHaveLength(1);
  });
});

describe('invitationUrl', () => {
  it('puts the code on the landing page of the language', () => {
    expect(invitationUrl('https://club.example', 'en', 'ABCD2345')).toBe('https://club.example/?rc=ABCD2345');
    expect(invitationUrl('https://club.example/', 'sv', 'ABCD2345')).toBe('https://club.example/sv/?rc=ABCD2345');
    expect(invitationUrl('https://club.example', 'xx', 'ABCD2345')).toBe('https://club.example/?rc=ABCD2345');
  });
});
