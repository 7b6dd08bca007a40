/** Mutation.register end to end through Yoga, on SQLite and PostgreSQL. */
import type { UserError } from '@velvet/validation/user-errors';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect.ts';
import { engineOf } from '../src/db/engine.ts';
import { ACTIVATION_VALIDITY_DAYS } from '../src/domain/activation-links.ts';
import { RESENDS_PER_HOUR } from '../src/services/registration/resend-activation.ts';
import type { RegisterInput } from '@velvet/validation/registration';
import { signValidityTimestamp } from '../src/domain/registration-link.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode, insertMember } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { REGISTER, activationIdsFor, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

async function count(db: Db, table: 'members' | 'consents' | 'activations' | 'email_outbox' | 'welcome_vouchers') {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(ENGINES)('register on %s', (engine) => {
  const { database, api } = engineApi(engine, { env: testEnv({ REFERRER_BLOCKLIST: 'mydealz,coupon' }) });

  async function register(input: Partial<RegisterInput> & { registrationCode: string }): Promise<RegisterPayload> {
    const { status, body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, {
      variables: { input: validInput(input.registrationCode, input) },
    });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const payload = body.data?.register;
    if (!payload) throw new Error('no register payload');
    // outcome is null exactly when something was refused
    expect(payload.outcome === null).toBe(payload.userErrors.length > 0);
    return payload;
  }

  describe('a new address', () => {
    it('creates a pending member, consent, activation link and outbox email → FORM_FINISHED', async () => {
      const { id: codeId, code } = await insertCode(database.db, { inviterFirstName: 'Sophie', balance: 3 });
      const email = uniqueEmail('New.Person');
      const registeredAt = api.clock.fix('2026-11-24T17:45:12.345Z');
      const payload = await register({
        registrationCode: ` ${code.toLowerCase()} `,
        email: `  ${email.toUpperCase()} `,
        firstName: '  Zoë  ',
        lastName: 'Łukasiewicz-Ó’Neill',
        gender: 'MALE',
        country: 'at',
        termsPkString: 'terms-AT-2026-01',
        dataPolicyPkString: 'data-policy-AT-2026-01',
        newsletter: true,
        language: 'de',
      });
      expect(payload).toMatchObject({ outcome: 'FORM_FINISHED', userErrors: [] });
      expect(payload.memberId).toMatch(/^[0-9a-f-]{36}$/);

      const member = await database.db.selectFrom('members').selectAll().where('id', '=', payload.memberId ?? '').executeTakeFirstOrThrow();
      expect(member).toMatchObject({
        email: email.toLowerCase(),
        first_name: 'Zoë',
        last_name: 'Łukasiewicz-Ó’Neill',
        gender: 'MALE',
        country: 'AT',
        language: 'de',
        status: 'pending',
        registration_code_id: codeId,
        newsletter: true,
        activated_at: null,
      });
      const consent = await database.db.selectFrom('consents').selectAll().where('member_id', '=', member.id).executeTakeFirstOrThrow();
      expect(consent).toMatchObject({
        country: 'AT',
        terms_pk_string: 'terms-AT-2026-01',
        data_policy_pk_string: 'data-policy-AT-2026-01',
        newsletter: true,
      });
      expect(consent.accepted_at).toBe(registeredAt.toISOString());

      const activation = await database.db.selectFrom('activations').selectAll().where('member_id', '=', member.id).executeTakeFirstOrThrow();
      expect(activation).toMatchObject({ reason: 'registration', used_at: null, superseded_at: null });
      expect(activation.created_at).toBe(registeredAt.toISOString());
      expect(activation.expires_at).toBe(new Date(registeredAt.getTime() + ACTIVATION_VALIDITY_DAYS * DAY_MS).toISOString());

      const outbox = await database.db.selectFrom('email_outbox').selectAll().where('recipient', '=', email.toLowerCase()).execute();
      expect(outbox).toHaveLength(1);
      expect(outbox[0]).toMatchObject({ template: 'activation', locale: 'de', status: 'pending', attempts: 0 });
      expect(JSON.parse(outbox[0]?.payload ?? '{}')).toMatchObject({ firstName: 'Zoë', inviterName: 'Sophie' });
      // The inviter's balance is only spent on activation.
      const codeRow = await database.db.selectFrom('registration_codes').select('balance').where('id', '=', codeId).executeTakeFirstOrThrow();
      expect(codeRow.balance).toBe(3);
    });

    it('accepts the informational CUSTOMIZATION_MISSING and a genuine link timestamp', async () => {
      const { code } = await insertCode(database.db, { requiresValidityTimestamp: true, landingSlug: 'vip' });
      const validityTimestamp = signValidityTimestamp(code, new Date(Date.now() + DAY_MS), TEST_SECRET);
      const payload = await register({ registrationCode: code, validityTimestamp, slug: 'other' });
      expect(payload.outcome).toBe('FORM_FINISHED');
    });

    it('takes gender and names as optional in the SOCIAL flow', async () => {
      const { code } = await insertCode(database.db);
      const payload = await register({ registrationCode: code, flow: 'SOCIAL', gender: null, firstName: null, lastName: '  ' });
      expect(payload.outcome).toBe('FORM_FINISHED');
      const member = await database.db.selectFrom('members').selectAll().where('id', '=', payload.memberId ?? '').executeTakeFirstOrThrow();
      expect(member).toMatchObject({ gender: null, first_name: '', last_name: '' });
      // Names that are given are still checked.
      const bad = await register({ registrationCode: code, flow: 'SOCIAL', gender: null, firstName: 'R2-D2' });
      expect(bad.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.invalidCharacters' }]);
    });
  });

  describe('field errors', () => {
    const cases: [string, Partial<RegisterInput>, UserError[]][] = [
      ['an empty email', { email: '   ' }, [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }]],
      ['an email without domain', { email: 'someone@' }, [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }]],
      ['an email without a dot in the domain', { email: 'someone@localhost' }, [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }]],
      ['an email with spaces', { email: 'some one@example.com' }, [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }]],
      [
        'an email over 254 characters',
        { email: `${'a'.repeat(60)}@${'b'.repeat(190)}.com` },
        [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.emailTooLong' }],
      ],
      ['no gender (DEFAULT)', { gender: null }, [{ code: 'INVALID_FIELD', field: 'gender', messageId: 'validation.gender' }]],
      ['no gender (LEAN)', { gender: null, flow: 'LEAN' }, [{ code: 'INVALID_FIELD', field: 'gender', messageId: 'validation.gender' }]],
      ['an empty first name', { firstName: '  ' }, [{ code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.firstName' }]],
      ['no first name', { firstName: null }, [{ code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.firstName' }]],
      ['an empty last name (LEAN)', { lastName: '', flow: 'LEAN' }, [{ code: 'INVALID_FIELD', field: 'lastName', messageId: 'validation.lastName' }]],
      ['digits in a name', { firstName: 'Anna2' }, [{ code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.invalidCharacters' }]],
      ['markup in a name', { lastName: '<b>x</b>' }, [{ code: 'INVALID_FIELD', field: 'lastName', messageId: 'validation.invalidCharacters' }]],
      ['an emoji in a name', { lastName: 'Smith 😀' }, [{ code: 'INVALID_FIELD', field: 'lastName', messageId: 'validation.invalidCharacters' }]],
      ['punctuation only', { firstName: "-'." }, [{ code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.invalidCharacters' }]],
      ['a name over 50 characters', { firstName: 'A'.repeat(51) }, [{ code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.nameTooLong' }]],
      ['a country the club does not serve', { country: 'US' }, [{ code: 'INVALID_FIELD', field: 'country', messageId: 'validation.country' }]],
      ['no country', { country: '' }, [{ code: 'INVALID_FIELD', field: 'country', messageId: 'validation.country' }]],
      ['terms not accepted', { termsAccepted: false }, [{ code: 'INVALID_FIELD', field: 'termsAccepted', messageId: 'validation.terms' }]],
      ['an old terms version', { termsPkString: 'terms-DE-2025-01' }, [{ code: 'INVALID_FIELD', field: 'termsAccepted', messageId: 'validation.legalVersion' }]],
      [
        "another country's data policy",
        { dataPolicyPkString: 'data-policy-AT-2026-01' },
        [{ code: 'INVALID_FIELD', field: 'termsAccepted', messageId: 'validation.legalVersion' }],
      ],
      ['an unknown language', { language: 'es' }, [{ code: 'INVALID_FIELD', field: 'language', messageId: 'validation.language' }]],
    ];

    it.each(cases)('reports %s, writing nothing', async (_label, overrides, expected) => {
      const { code } = await insertCode(database.db);
      const payload = await register({ registrationCode: code, ...overrides });
      expect(payload).toEqual({ outcome: null, memberId: null, userErrors: expected });
      expect(await count(database.db, 'email_outbox')).toBe(0);
      expect(await count(database.db, 'consents')).toBe(0);
    });

    it('reports every refused field at once, in form order', async () => {
      const { code } = await insertCode(database.db);
      const payload = await register({
        registrationCode: code,
        email: 'nope',
        gender: null,
        firstName: '',
        lastName: '#',
        country: 'XX',
        termsAccepted: false,
        language: 'xx',
      });
      expect(payload.userErrors).toEqual([
        { code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' },
        { code: 'INVALID_FIELD', field: 'gender', messageId: 'validation.gender' },
        { code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.firstName' },
        { code: 'INVALID_FIELD', field: 'lastName', messageId: 'validation.invalidCharacters' },
        { code: 'INVALID_FIELD', field: 'country', messageId: 'validation.country' },
        { code: 'INVALID_FIELD', field: 'termsAccepted', messageId: 'validation.terms' },
        { code: 'INVALID_FIELD', field: 'language', messageId: 'validation.language' },
      ]);
    });

    it('accepts names with diacritics, apostrophes, hyphens, dots and spaces', async () => {
      const { code } = await insertCode(database.db);
      for (const [firstName, lastName] of [
        ['Ægir', 'Þórsson'],
        ['Chloé Anne', "d'Artagnan"],
        ['J. R.', 'Müller-Lüdenscheidt'],
        ['Štěpán', 'Dvořák'],
        ['Γιώργος', 'Παπαδόπουλος'],
      ]) {
        expect((await register({ registrationCode: code, firstName, lastName })).userErrors).toEqual([]);
      }
    });
  });

  describe('legal versions', () => {
    const DETAILS = /* GraphQL */ `query details($registrationCode: String!) {
      registrationCodeDetails(registrationCode: $registrationCode) { countryOptions { isoCode termsPkString dataPolicyPkString } }
    }`;

    it('refuses the versions the form showed once newer ones are in force, and takes the current ones', async () => {
      const { code } = await insertCode(database.db);
      const members = await count(database.db, 'members');
      const published = '2026-12-01T09:00:00.000Z';
      await database.db.insertInto('legal_documents').values({ country: 'DE', kind: 'terms', pk_string: 'terms-DE-2026-12', published_at: published }).execute();
      try {
        // The page renders the form the evening before the new terms come into force…
        api.clock.fix('2026-11-30T21:00:00.000Z');
        const { body } = await graphql<{ registrationCodeDetails: { countryOptions: { isoCode: string; termsPkString: string; dataPolicyPkString: string }[] } }>(
          api.yoga,
          DETAILS,
          { variables: { registrationCode: code } },
        );
        const shown = body.data?.registrationCodeDetails.countryOptions.find((o) => o.isoCode === 'DE');
        expect(shown).toEqual({ isoCode: 'DE', termsPkString: 'terms-DE-2026-01', dataPolicyPkString: 'data-policy-DE-2026-01' });
        // …and the visitor submits it the next morning: they agreed to terms no longer in force.
        api.clock.fix('2026-12-01T09:30:00.000Z');
        const refused = await register({ registrationCode: code, termsPkString: shown?.termsPkString, dataPolicyPkString: shown?.dataPolicyPkString });
        expect(refused).toEqual({
          outcome: null,
          memberId: null,
          userErrors: [{ code: 'INVALID_FIELD', field: 'termsAccepted', messageId: 'validation.legalVersion' }],
        });
        expect(await count(database.db, 'members')).toBe(members);
        expect(await count(database.db, 'consents')).toBe(0);
        // Shown the current terms, the same visitor registers, and the consent names that version.
        const accepted = await register({ registrationCode: code, termsPkString: 'terms-DE-2026-12', dataPolicyPkString: 'data-policy-DE-2026-01' });
        expect(accepted.outcome).toBe('FORM_FINISHED');
        const consent = await database.db.selectFrom('consents').select(['terms_pk_string', 'data_policy_pk_string']).executeTakeFirstOrThrow();
        expect(consent).toEqual({ terms_pk_string: 'terms-DE-2026-12', data_policy_pk_string: 'data-policy-DE-2026-01' });
      } finally {
        await database.db.deleteFrom('legal_documents').where('pk_string', '=', 'terms-DE-2026-12').execute();
      }
    });
  });

  describe('code errors', () => {
    it.each([
      ['an unknown code', {}, 'NO-SUCH-CODE', ['REGISTRATION_CODE_INVALID', 'invitation.invalid']],
      ['an expired code', { expiresAt: '2025-01-01T00:00:00.000Z' }, null, ['REGISTRATION_CODE_EXPIRED', 'invitation.expired']],
      ['a code without balance', { balance: 0 }, null, ['REGISTRATION_CODE_NO_BALANCE_LEFT', 'invitation.noBalance']],
      ['a full code', { balance: 2, pendingMembers: 2 }, null, ['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS', 'invitation.noBalance']],
      ['a blocked inviter', { inviterStatus: 'blocked' as const }, null, ['INVITER_INVALID', 'invitation.invalid']],
      ['a link-only code without timestamp', { requiresValidityTimestamp: true }, null, ['REGISTRATION_TIMESTAMP_MISSING', 'invitation.invalidLink']],
    ])('reports %s and writes nothing', async (_label, fields, override, expected) => {
      const { code } = await insertCode(database.db, fields);
      const members = await count(database.db, 'members');
      const payload = await register({ registrationCode: override ?? code });
      const [error, messageId] = expected;
      expect(payload).toEqual({ outcome: null, memberId: null, userErrors: [{ code: error, field: 'registrationCode', messageId }] });
      expect(await count(database.db, 'members')).toBe(members);
      expect(await count(database.db, 'email_outbox')).toBe(0);
    });

    it('reports a forbidden referrer', async () => {
      const { code } = await insertCode(database.db);
      const payload = await register({ registrationCode: code, referrer: 'https://www.mydealz.de/deals' });
      expect(payload.userErrors.map((e) => e.code)).toEqual(['REFERER_INVALID']);
    });

    it('reports field and code errors together', async () => {
      const payload = await register({ registrationCode: 'NO-SUCH-CODE', email: 'x' });
      expect(payload).toEqual({
        outcome: null,
        memberId: null,
        userErrors: [
          { code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' },
          { code: 'REGISTRATION_CODE_INVALID', field: 'registrationCode', messageId: 'invitation.invalid' },
        ],
      });
    });

    it('does not tell whether an address has an account when the code is unusable', async () => {
      const { code } = await insertCode(database.db, { expiresAt: '2025-01-01T00:00:00.000Z' });
      const memberId = await insertMember(database.db, { status: 'active' });
      const { email } = await database.db.selectFrom('members').select('email').where('id', '=', memberId).executeTakeFirstOrThrow();
      expect((await register({ registrationCode: code, email })).userErrors.map((e) => e.code)).toEqual(['REGISTRATION_CODE_EXPIRED']);
    });
  });

  describe('a known address', () => {
    it.each(['active', 'blocked'] as const)('of an %s member answers ACCOUNT_ACTIVE and writes nothing', async (status) => {
      const { code } = await insertCode(database.db);
      const memberId = await insertMember(database.db, { status });
      const { email } = await database.db.selectFrom('members').select('email').where('id', '=', memberId).executeTakeFirstOrThrow();
      const before = await Promise.all((['members', 'consents', 'activations', 'email_outbox'] as const).map((t) => count(database.db, t)));
      const payload = await register({ registrationCode: code, email: email.toUpperCase() });
      expect(payload).toEqual({ outcome: 'ACCOUNT_ACTIVE', memberId: null, userErrors: [] });
      const after = await Promise.all((['members', 'consents', 'activations', 'email_outbox'] as const).map((t) => count(database.db, t)));
      expect(after).toEqual(before);
    });

    it('of a pending member sends a fresh link that supersedes the old one → ACCOUNT_PENDING, even when the code is full', async () => {
      const { code } = await insertCode(database.db, { balance: 1 });
      const email = uniqueEmail();
      const first = await register({ registrationCode: code, email });
      expect(first.outcome).toBe('FORM_FINISHED');
      // The member's own place now fills the code; asking for the email again still works.
      const again = await register({ registrationCode: code, email: ` ${email.toUpperCase()}`, firstName: 'Someone', language: 'fr' });
      expect(again).toEqual({ outcome: 'ACCOUNT_PENDING', memberId: null, userErrors: [] });

      const activations = await database.db
        .selectFrom('activations')
        .selectAll()
        .where('member_id', '=', first.memberId ?? '')
        .orderBy('created_at')
        .orderBy('reason', 'desc')
        .execute();
      expect(activations.map((a) => [a.reason, a.superseded_at === null])).toEqual([
        ['registration', false],
        ['resend', true],
      ]);
      const outbox = await database.db.selectFrom('email_outbox').select(['locale']).where('recipient', '=', email).orderBy('created_at').execute();
      expect(outbox.map((o) => o.locale)).toEqual(['en', 'fr']);
      // The resend does not change the member's data.
      const member = await database.db.selectFrom('members').select('first_name').where('id', '=', first.memberId ?? '').executeTakeFirstOrThrow();
      expect(member.first_name).toBe('Zoë');
      expect(new Set(await activationIdsFor(database.db, email)).size).toBe(2);
    });

    it(`sends at most ${RESENDS_PER_HOUR} new emails an hour, with the same outcome beyond, and says when none went out`, async () => {
      const { code } = await insertCode(database.db);
      const email = uniqueEmail();
      // The visitor's "send it again" says truly whether an email went out (issue 20 §1).
      const sendAgain = async () => {
        const { body } = await graphql<{ register: { outcome: string; resendLimitReached: boolean } }>(
          api.yoga,
          'mutation r($input: RegisterInput!) { register(input: $input) { outcome resendLimitReached } }',
          { variables: { input: validInput(code, { email }) } },
        );
        return body.data?.register;
      };
      expect(await sendAgain()).toEqual({ outcome: 'FORM_FINISHED', resendLimitReached: false });
      for (let i = 0; i < RESENDS_PER_HOUR + 2; i++) {
        expect(await sendAgain()).toEqual({ outcome: 'ACCOUNT_PENDING', resendLimitReached: i >= RESENDS_PER_HOUR });
      }
      const emails = await database.db.selectFrom('email_outbox').select('id').where('recipient', '=', email).execute();
      expect(emails).toHaveLength(1 + RESENDS_PER_HOUR);
      const live = await database.db
        .selectFrom('activations')
        .select('id')
        .where('superseded_at', 'is', null)
        .where('used_at', 'is', null)
        .execute();
      expect(live).toHaveLength(1);
    });
  });

  it('writes member, consent, activation and email in one transaction: a failing email insert leaves nothing', async () => {
    const { code } = await insertCode(database.db);
    const postgres = engineOf(database.db as never) === 'postgres';
    if (postgres) {
      await sql`create function fail_outbox_insert() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`.execute(database.db);
      await sql`create trigger fail_outbox_insert before insert on email_outbox for each row execute function fail_outbox_insert()`.execute(database.db);
    } else {
      await sql`create trigger fail_outbox_insert before insert on email_outbox begin select raise(abort, 'injected failure'); end`.execute(database.db);
    }
    try {
      const email = uniqueEmail();
      const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
      expect(body.errors?.[0]?.message).toBe('Unexpected error.');
      expect(await database.db.selectFrom('members').select('id').where('email', '=', email).execute()).toEqual([]);
      expect(await count(database.db, 'consents')).toBe(0);
      expect(await count(database.db, 'activations')).toBe(0);
      expect(await count(database.db, 'email_outbox')).toBe(0);
    } finally {
      await sql`drop trigger fail_outbox_insert${sql.raw(postgres ? ' on email_outbox' : '')}`.execute(database.db);
      if (postgres) await sql`drop function fail_outbox_insert()`.execute(database.db);
    }
  });

  it('never gives away more places than the balance: 20 parallel registrations on a code with 5', async () => {
    const { id, code } = await insertCode(database.db, { balance: 5 });
    const results = await Promise.all(Array.from({ length: 20 }, () => register({ registrationCode: code })));
    const finished = results.filter((r) => r.outcome === 'FORM_FINISHED');
    expect(finished).toHaveLength(5);
    const refused = results.filter((r) => r.outcome === null);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.userErrors).toHaveLength(1);
      expect(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS', 'REGISTRATION_CODE_NO_BALANCE_LEFT']).toContain(r.userErrors[0]?.code);
    }
    const pending = await database.db
      .selectFrom('members')
      .select('id')
      .where('registration_code_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    expect(pending).toHaveLength(5);
    expect(await count(database.db, 'email_outbox')).toBe(5);
  });

  it('answers the same address registered twice at once with one member', async () => {
    const { code } = await insertCode(database.db);
    const email = uniqueEmail();
    const results = await Promise.all([register({ registrationCode: code, email }), register({ registrationCode: code, email })]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['ACCOUNT_PENDING', 'FORM_FINISHED']);
    expect(await database.db.selectFrom('members').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });
});
