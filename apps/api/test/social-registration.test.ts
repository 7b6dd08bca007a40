/** Mutation.completeSocialRegistration (the social second step) end to end through Yoga, on SQLite and PostgreSQL. */
import { codeError } from '@velvet/validation/user-errors';
import type { UserError } from '@velvet/validation/user-errors';
import { signLobbyToken, signSocialToken } from '@velvet/tokens/signed-token';
import type { SocialClaims } from '@velvet/tokens/signed-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect.ts';
import { createLogger } from '../src/logger.ts';
import { OutboxWorker } from '../src/mail/outbox-worker.ts';
import { createSmtpTransport } from '../src/mail/transport.ts';
import { createRegistrationEvents } from '../src/domain/registration-events.ts';
import type { RegistrationEvents } from '../src/domain/registration-events.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode, insertMember } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { ACTIVATE, REGISTER, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';
import { startSmtpPeer } from './support/smtp.ts';

const COMPLETE = /* GraphQL */ `
  mutation complete($input: CompleteSocialRegistrationInput!) {
    completeSocialRegistration(input: $input) {
      outcome
      memberId
      voucher { percent minimumOrderValue currency validUntil code }
      firstName
      userErrors { code field messageId }
    }
  }
`;

interface SocialPayload {
  outcome: string | null;
  memberId: string | null;
  voucher: { percent: number; minimumOrderValue: number | null; currency: string; validUntil: string; code: string } | null;
  firstName: string | null;
  userErrors: UserError[];
}

const TABLES = ['members', 'consents', 'activations', 'email_outbox', 'welcome_vouchers', 'member_preferences', 'member_social_identities'] as const;

async function counts(db: Db): Promise<Record<string, number>> {
  const entries = await Promise.all(
    TABLES.map(async (table) => {
      const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return [table, Number(row.n)] as const;
    }),
  );
  return Object.fromEntries(entries);
}

let subjects = 0;
function socialToken(claims: Partial<SocialClaims> = {}, now?: Date): Promise<string> {
  subjects += 1;
  return signSocialToken(
    {
      email: uniqueEmail('social'),
      emailVerified: true,
      firstName: 'Giulia',
      lastName: 'Rossi',
      provider: 'google',
      subject: `subject-${Date.now()}-${subjects}`,
      ...claims,
    },
    TEST_SECRET,
    900,
    now,
  );
}

function socialInput(registrationCode: string, token: string, overrides: Record<string, unknown> = {}) {
  return {
    token,
    registrationCode,
    country: 'IT',
    newsletter: false,
    termsAccepted: true,
    termsPkString: 'terms-IT-2026-01',
    dataPolicyPkString: 'data-policy-IT-2026-01',
    language: 'it',
    shoppingPreferences: ['WOMEN', 'LUXURY'],
    ...overrides,
  };
}

describe.each(ENGINES)('completeSocialRegistration on %s', (engine) => {
  let events: RegistrationEvents;
  beforeAll(() => {
    events = createRegistrationEvents({});
  });
  afterAll(async () => {
    await events?.close();
  });
  const { database, api } = engineApi(engine, { env: testEnv({ PUBLIC_URL: 'https://club.example' }), api: () => ({ events }) });

  async function complete(input: Record<string, unknown>): Promise<SocialPayload> {
    const { status, body } = await graphql<{ completeSocialRegistration: SocialPayload }>(api.yoga, COMPLETE, { variables: { input } });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const payload = body.data?.completeSocialRegistration;
    if (!payload) throw new Error('no completeSocialRegistration payload');
    expect(payload.outcome === null).toBe(payload.userErrors.length > 0);
    return payload;
  }

  const balanceOf = async (codeId: string) =>
    (await database.db.selectFrom('registration_codes').select('balance').where('id', '=', codeId).executeTakeFirstOrThrow()).balance;

  describe('a verified address', () => {
    it('activates the member at once → ACTIVATED with the voucher, balance − 1, consent, preferences, identity, no activation email', async () => {
      const { id: codeId, code } = await insertCode(database.db, { balance: 3, customization: 'social-20-percent-mov' });
      const email = uniqueEmail('Verified');
      const signedInAt = api.clock.fix('2026-11-24T17:45:00.000Z');
      const token = await socialToken({ email, subject: 'google-sub-1' }, signedInAt);
      api.clock.fix('2026-11-24T17:46:30.250Z');
      const payload = await complete(socialInput(code, token, { newsletter: true }));
      expect(payload).toMatchObject({ outcome: 'ACTIVATED', firstName: 'Giulia', userErrors: [] });
      expect(payload.voucher).toMatchObject({ percent: 20, minimumOrderValue: 150, currency: 'EUR' });
      expect(payload.voucher?.code).toMatch(/^WELCOME-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      // 14 days from the moment the member became active.
      expect(payload.voucher?.validUntil).toBe('2026-12-08T17:46:30.250Z');

      const member = await database.db.selectFrom('members').selectAll().where('id', '=', payload.memberId ?? '').executeTakeFirstOrThrow();
      expect(member).toMatchObject({
        email: email.toLowerCase(),
        first_name: 'Giulia',
        last_name: 'Rossi',
        gender: null,
        country: 'IT',
        language: 'it',
        status: 'active',
        registration_code_id: codeId,
        newsletter: true,
      });
      expect(member.activated_at).toBe('2026-11-24T17:46:30.250Z');
      expect(member.created_at).toBe(member.activated_at);
      expect(await balanceOf(codeId)).toBe(2);
      const consents = await database.db.selectFrom('consents').selectAll().where('member_id', '=', member.id).execute();
      expect(consents).toEqual([expect.objectContaining({ country: 'IT', terms_pk_string: 'terms-IT-2026-01', newsletter: true })]);
      const preferences = await database.db.selectFrom('member_preferences').select('preference').where('member_id', '=', member.id).execute();
      expect(preferences.map((p) => p.preference).sort()).toEqual(['LUXURY', 'WOMEN']);
      const identities = await database.db.selectFrom('member_social_identities').selectAll().execute();
      expect(identities).toEqual([expect.objectContaining({ provider: 'google', subject: 'google-sub-1', member_id: member.id })]);
      const voucher = await database.db.selectFrom('welcome_vouchers').selectAll().where('member_id', '=', member.id).executeTakeFirstOrThrow();
      expect(voucher.code).toBe(payload.voucher?.code);
      // No activation email: the one email is the welcome voucher (ADR 058).
      expect(await database.db.selectFrom('email_outbox').select('template').execute()).toEqual([{ template: 'welcome' }]);
      expect(await database.db.selectFrom('activations').select('id').execute()).toEqual([]);
    });

    it('makes registrationStatus ACTIVE, and publishes ACTIVE to those subscribed', async () => {
      const { code } = await insertCode(database.db);
      const payload = await complete(socialInput(code, await socialToken()));
      const { body } = await graphql<{ registrationStatus: { state: string } }>(
        api.yoga,
        'query s($id: String!) { registrationStatus(memberId: $id) { state } }',
        { variables: { id: payload.memberId } },
      );
      expect(body.data?.registrationStatus.state).toBe('ACTIVE');

      // Someone can only be subscribed to a member that exists: a pending one, activated by the social step.
      const email = uniqueEmail();
      await graphql(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
      const pending = await database.db.selectFrom('members').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const updates = events.subscribe(pending.id);
      try {
        const next = updates.next();
        expect((await complete(socialInput(code, await socialToken({ email })))).outcome).toBe('ACTIVATED');
        expect((await next).value).toEqual({ memberId: pending.id, state: 'ACTIVE' });
      } finally {
        await updates.return?.();
      }
    });

    it("uses the form's names and gender over the provider's, and the provider's when the form has none", async () => {
      const { code } = await insertCode(database.db);
      const own = await complete(
        socialInput(code, await socialToken(), { firstName: '  Chiara ', lastName: 'Bianchi', gender: 'FEMALE' }),
      );
      expect(own.firstName).toBe('Chiara');
      const ownRow = await database.db.selectFrom('members').selectAll().where('id', '=', own.memberId ?? '').executeTakeFirstOrThrow();
      expect(ownRow).toMatchObject({ first_name: 'Chiara', last_name: 'Bianchi', gender: 'FEMALE' });

      const none = await complete(socialInput(code, await socialToken({ firstName: undefined, lastName: undefined })));
      expect(none).toMatchObject({ outcome: 'ACTIVATED', firstName: null });
      const noneRow = await database.db.selectFrom('members').selectAll().where('id', '=', none.memberId ?? '').executeTakeFirstOrThrow();
      expect(noneRow).toMatchObject({ first_name: '', last_name: '' });
    });

    it("checks the provider's names like typed ones", async () => {
      const { code } = await insertCode(database.db);
      const payload = await complete(socialInput(code, await socialToken({ firstName: 'R2-D2' })));
      expect(payload.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'firstName', messageId: 'validation.invalidCharacters' }]);
    });

    it('activates a pending member of that address instead (their old link then says ALREADY_ACTIVE) → ACTIVATED', async () => {
      const { id: codeId, code } = await insertCode(database.db, { balance: 2, customization: 'social-15-percent-no-mov' });
      const email = uniqueEmail();
      const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, {
        variables: { input: validInput(code, { email, firstName: 'Typed', lastName: 'Earlier', language: 'en' }) },
      });
      const memberId = body.data?.register.memberId;
      const oldLink = await latestActivationId(database.db, email);
      const identity = await socialToken({ email: email.toUpperCase(), firstName: 'Giulia', lastName: 'Rossi', subject: 'sub-pending' });
      const payload = await complete(socialInput(code, identity, { newsletter: true }));
      expect(payload).toMatchObject({ outcome: 'ACTIVATED', memberId, firstName: 'Giulia' });
      expect(payload.voucher).toMatchObject({ percent: 15, minimumOrderValue: null });
      const member = await database.db.selectFrom('members').selectAll().where('id', '=', memberId ?? '').executeTakeFirstOrThrow();
      expect(member).toMatchObject({ status: 'active', first_name: 'Giulia', last_name: 'Rossi', language: 'it', country: 'IT', newsletter: true });
      expect(await balanceOf(codeId)).toBe(1);
      expect(await database.db.selectFrom('consents').select('id').where('member_id', '=', memberId ?? '').execute()).toHaveLength(2);
      expect(await database.db.selectFrom('member_social_identities').select('subject').execute()).toEqual([{ subject: 'sub-pending' }]);
      const link = await graphql<{ activateAccount: { outcome: string } }>(api.yoga, ACTIVATE, { variables: { activationId: oldLink } });
      expect(link.body.data?.activateAccount.outcome).toBe('ALREADY_ACTIVE');
    });
  });

  describe('an unverified address', () => {
    it('registers exactly like the email form → FORM_FINISHED, with the activation email over SMTP; no identity is linked', async () => {
      const { id: codeId, code } = await insertCode(database.db, { balance: 3, inviterFirstName: 'Sophie' });
      const email = uniqueEmail('Unverified');
      const payload = await complete(socialInput(code, await socialToken({ email, emailVerified: false }), { language: 'de' }));
      expect(payload).toMatchObject({ outcome: 'FORM_FINISHED', voucher: null, firstName: null, userErrors: [] });
      const member = await database.db.selectFrom('members').selectAll().where('id', '=', payload.memberId ?? '').executeTakeFirstOrThrow();
      expect(member).toMatchObject({ status: 'pending', activated_at: null, first_name: 'Giulia', language: 'de' });
      expect(await balanceOf(codeId)).toBe(3);
      expect(await database.db.selectFrom('member_preferences').select('preference').execute()).toHaveLength(2);
      expect(await database.db.selectFrom('member_social_identities').select('subject').execute()).toEqual([]);

      const peer = await startSmtpPeer();
      const transport = createSmtpTransport(peer.url);
      try {
        const worker = new OutboxWorker({
          db: database.db,
          transport,
          env: testEnv({ PUBLIC_URL: 'https://club.example' }),
          logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
        });
        expect(await worker.runOnce()).toMatchObject({ sent: 1 });
        const [received] = await peer.waitFor(1);
        const activationId = await latestActivationId(database.db, email.toLowerCase());
        expect(received?.to).toEqual([email.toLowerCase()]);
        expect(received?.text).toContain(`https://club.example/de/registration/activateaccount?activationId=${activationId}`);
        const activated = await graphql<{ activateAccount: { outcome: string } }>(api.yoga, ACTIVATE, { variables: { activationId } });
        expect(activated.body.data?.activateAccount.outcome).toBe('ACTIVATED');
        expect(await balanceOf(codeId)).toBe(2);
      } finally {
        await transport.close();
        await peer.close();
      }
    });

    it('of a pending member sends the activation email again → ACCOUNT_PENDING, changing nothing else', async () => {
      const { code } = await insertCode(database.db);
      const email = uniqueEmail();
      const first = await complete(socialInput(code, await socialToken({ email, emailVerified: false })));
      const again = await complete(socialInput(code, await socialToken({ email, emailVerified: false, firstName: 'Other' })));
      expect(again).toMatchObject({ outcome: 'ACCOUNT_PENDING', memberId: null, voucher: null });
      const member = await database.db.selectFrom('members').select(['first_name', 'status']).where('id', '=', first.memberId ?? '').executeTakeFirstOrThrow();
      expect(member).toEqual({ first_name: 'Giulia', status: 'pending' });
      expect(await database.db.selectFrom('email_outbox').select('id').execute()).toHaveLength(2);
    });
  });

  it.each([true, false])('answers ACCOUNT_ACTIVE for an active member (verified: %s) and writes nothing', async (emailVerified) => {
    const { code } = await insertCode(database.db);
    const memberId = await insertMember(database.db, { status: 'active' });
    const { email } = await database.db.selectFrom('members').select('email').where('id', '=', memberId).executeTakeFirstOrThrow();
    const before = await counts(database.db);
    const payload = await complete(socialInput(code, await socialToken({ email, emailVerified })));
    expect(payload).toEqual({
      outcome: 'ACCOUNT_ACTIVE',
      memberId: null,
      voucher: null,
      firstName: null,
      userErrors: [],
    });
    expect(await counts(database.db)).toEqual(before);
  });

  it('requires at least one shopping preference, reported with the other field errors', async () => {
    const { code } = await insertCode(database.db);
    const before = await counts(database.db);
    expect((await complete(socialInput(code, await socialToken(), { shoppingPreferences: [] }))).userErrors).toEqual([
      { code: 'INVALID_FIELD', field: 'shoppingPreferences', messageId: 'validation.preferences' },
    ]);
    const many = await complete(
      socialInput(code, await socialToken(), { shoppingPreferences: [], termsAccepted: false, country: 'US', language: 'xx' }),
    );
    expect(many.userErrors).toEqual([
      { code: 'INVALID_FIELD', field: 'country', messageId: 'validation.country' },
      { code: 'INVALID_FIELD', field: 'termsAccepted', messageId: 'validation.terms' },
      { code: 'INVALID_FIELD', field: 'language', messageId: 'validation.language' },
      { code: 'INVALID_FIELD', field: 'shoppingPreferences', messageId: 'validation.preferences' },
    ]);
    expect(await counts(database.db)).toEqual(before);
  });

  it('stores repeated preferences once', async () => {
    const { code } = await insertCode(database.db);
    const payload = await complete(socialInput(code, await socialToken(), { shoppingPreferences: ['MEN', 'MEN', 'SPORT'] }));
    const rows = await database.db.selectFrom('member_preferences').select('preference').where('member_id', '=', payload.memberId ?? '').execute();
    expect(rows.map((r) => r.preference).sort()).toEqual(['MEN', 'SPORT']);
  });

  it('refuses a bad token alone, before any other check, and writes nothing', async () => {
    const { code } = await insertCode(database.db);
    const cases: [string, string][] = [
      ['', 'TOKEN_MISSING'],
      [`${await socialToken()}x`, 'TOKEN_INVALID'],
      [await signLobbyToken({ email: uniqueEmail() }, TEST_SECRET, 900), 'TOKEN_INVALID'],
      [await socialToken({}, new Date(Date.now() - 3_600_000)), 'TOKEN_EXPIRED'],
      [await socialToken({ email: 'not an address' }), 'TOKEN_NO_EMAIL'],
    ];
    const before = await counts(database.db);
    for (const [token, expected] of cases) {
      // Invalid fields too: a refused token is all the answer says.
      const payload = await complete(socialInput(code, token, { shoppingPreferences: [], country: 'US' }));
      expect(payload, expected).toEqual({
        outcome: null,
        memberId: null,
        voucher: null,
        firstName: null,
        userErrors: [{ code: expected, field: 'token', messageId: 'deny.invalid' }],
      });
    }
    expect(await counts(database.db)).toEqual(before);
  });

  it('takes the address from the token only: the input has no email field', async () => {
    const { code } = await insertCode(database.db);
    const { body } = await graphql(api.yoga, COMPLETE, {
      variables: { input: { ...socialInput(code, await socialToken()), email: 'chosen@example.test' } },
    });
    expect(body.errors?.[0]?.message).toMatch(/email/);
    expect(await database.db.selectFrom('members').select('id').where('email', '=', 'chosen@example.test').execute()).toEqual([]);
  });

  it.each([
    ['an unknown code', {}, 'NO-SUCH-CODE', 'REGISTRATION_CODE_INVALID'],
    ['an expired code', { expiresAt: '2025-01-01T00:00:00.000Z' }, null, 'REGISTRATION_CODE_EXPIRED'],
    ['a code without balance', { balance: 0 }, null, 'REGISTRATION_CODE_NO_BALANCE_LEFT'],
    ['a full code', { balance: 1, pendingMembers: 1 }, null, 'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS'],
    ['a blocked inviter', { inviterStatus: 'blocked' as const }, null, 'INVITER_INVALID'],
  ] as const)('reports %s as a code user error and writes nothing', async (_label, fields, override, expected) => {
    const { code } = await insertCode(database.db, fields);
    const before = await counts(database.db);
    const payload = await complete(socialInput(override ?? code, await socialToken()));
    expect(payload).toMatchObject({ outcome: null, userErrors: [codeError(expected)] });
    expect(await counts(database.db)).toEqual(before);
  });

  it('refuses an invitation that arrived from a blocked site (REFERER_INVALID), as register does, and writes nothing', async () => {
    const { code } = await insertCode(database.db);
    const before = await counts(database.db);
    const payload = await complete(socialInput(code, await socialToken(), { referrer: 'https://www.mydealz.de/deals/velvet-rope-2291874' }));
    expect(payload).toMatchObject({ outcome: null, userErrors: [{ code: 'REFERER_INVALID', field: 'registrationCode', messageId: 'deny.referrer' }] });
    expect(await counts(database.db)).toEqual(before);
    // Any other site is fine.
    expect((await complete(socialInput(code, await socialToken(), { referrer: 'https://friends.example/invite' }))).outcome).toBe('ACTIVATED');
  });

  it('never gives away more places than the balance: 20 parallel verified sign-ups on a code with 5', async () => {
    const { id, code } = await insertCode(database.db, { balance: 5 });
    const tokens = await Promise.all(Array.from({ length: 20 }, () => socialToken()));
    const results = await Promise.all(tokens.map((token) => complete(socialInput(code, token))));
    expect(results.filter((r) => r.outcome === 'ACTIVATED')).toHaveLength(5);
    const refused = results.filter((r) => r.outcome === null);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.userErrors).toHaveLength(1);
      expect(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS', 'REGISTRATION_CODE_NO_BALANCE_LEFT']).toContain(r.userErrors[0]?.code);
    }
    expect(await balanceOf(id)).toBe(0);
    const members = await database.db.selectFrom('members').select('status').where('registration_code_id', '=', id).execute();
    expect(members).toHaveLength(5);
    expect(await database.db.selectFrom('welcome_vouchers').select('code').execute()).toHaveLength(5);
  });

  it('keeps places and pending registrations consistent with verified, unverified and email sign-ups racing', async () => {
    const { id, code } = await insertCode(database.db, { balance: 6 });
    const verified = await Promise.all(Array.from({ length: 8 }, () => socialToken()));
    const unverified = await Promise.all(Array.from({ length: 8 }, () => socialToken({ emailVerified: false })));
    const results = await Promise.all([
      ...verified.map((token) => complete(socialInput(code, token))),
      ...unverified.map((token) => complete(socialInput(code, token))),
      ...Array.from({ length: 8 }, () =>
        graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code) } }).then((r) => ({
          outcome: r.body.data?.register.outcome ?? null,
        })),
      ),
    ]);
    const activated = results.filter((r) => r.outcome === 'ACTIVATED').length;
    const pending = results.filter((r) => r.outcome === 'FORM_FINISHED').length;
    // Every place went to exactly one person: activated spent one, pending ones hold one.
    expect(activated + pending).toBe(6);
    expect(await balanceOf(id)).toBe(6 - activated);
    const rows = await database.db.selectFrom('members').select('status').where('registration_code_id', '=', id).execute();
    expect(rows.filter((r) => r.status === 'pending')).toHaveLength(pending);
    expect(rows.filter((r) => r.status === 'active')).toHaveLength(activated);
  });

  it('answers the same verified address signed up twice at once with one member', async () => {
    const { code } = await insertCode(database.db);
    const email = uniqueEmail();
    const results = await Promise.all([
      complete(socialInput(code, await socialToken({ email }))),
      complete(socialInput(code, await socialToken({ email }))),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['ACCOUNT_ACTIVE', 'ACTIVATED']);
    expect(await database.db.selectFrom('members').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });
});
