/** Mutation.activateAccount and Query.registrationStatus, on SQLite and PostgreSQL. */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Customization } from '@velvet/validation/customization';
import { hashToken } from '../src/lib/tokens.ts';
import { ACTIVATION_VALIDITY_DAYS } from '../src/domain/activation-links.ts';
import { WELCOME_VOUCHER_VALIDITY_DAYS } from '@velvet/validation/customization';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { ACTIVATE, REGISTER, activationIdsFor, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

interface ActivatePayload {
  outcome: string | null;
  voucher: { percent: number; minimumOrderValue: number | null; currency: string; validUntil: string; code: string } | null;
  firstName: string | null;
  language: string | null;
  memberId: string | null;
  userErrors: { code: string; field: string | null; messageId: string }[];
}

const STATUS = 'query status($id: String!) { registrationStatus(memberId: $id) { memberId state } }';

describe.each(ENGINES)('activateAccount on %s', (engine) => {
  const { database, api } = engineApi(engine);

  async function registered(fields: { balance?: number; customization?: Customization | null; language?: string } = {}) {
    const { id: codeId, code } = await insertCode(database.db, { balance: fields.balance ?? 5, customization: fields.customization ?? null });
    const email = uniqueEmail();
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, {
      variables: { input: validInput(code, { email, language: fields.language ?? 'en' }) },
    });
    const memberId = body.data?.register.memberId;
    if (!memberId) throw new Error(`registration failed: ${JSON.stringify(body)}`);
    return { codeId, code, email, memberId, activationId: await latestActivationId(database.db, email) };
  }

  async function activate(activationId: string): Promise<ActivatePayload> {
    const { body } = await graphql<{ activateAccount: ActivatePayload }>(api.yoga, ACTIVATE, { variables: { activationId } });
    expect(body.errors).toBeUndefined();
    if (!body.data) throw new Error('no data');
    return body.data.activateAccount;
  }

  const balanceOf = async (codeId: string) =>
    (await database.db.selectFrom('registration_codes').select('balance').where('id', '=', codeId).executeTakeFirstOrThrow()).balance;

  it('activates: member active, balance − 1, link used, welcome voucher, consent kept', async () => {
    api.clock.fix('2026-11-20T09:00:00.000Z');
    const { codeId, memberId, activationId } = await registered({ balance: 5, language: 'it' });
    const activatedAt = api.clock.fix('2026-11-24T17:45:12.345Z');
    const payload = await activate(activationId);
    expect(payload).toMatchObject({ outcome: 'ACTIVATED', firstName: 'Zoë', language: 'it', memberId });
    expect(payload.voucher).toMatchObject({ percent: 10, minimumOrderValue: null, currency: 'EUR' });
    expect(payload.voucher?.code).toMatch(/^WELCOME-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // Valid for exactly the voucher's days from the activation: 14 days on, to the millisecond.
    expect(payload.voucher?.validUntil).toBe(new Date(activatedAt.getTime() + WELCOME_VOUCHER_VALIDITY_DAYS * DAY_MS).toISOString());
    expect(payload.voucher?.validUntil).toBe('2026-12-08T17:45:12.345Z');

    const member = await database.db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirstOrThrow();
    expect(member.status).toBe('active');
    expect(member.activated_at).not.toBeNull();
    expect(await balanceOf(codeId)).toBe(4);
    const activation = await database.db.selectFrom('activations').selectAll().where('member_id', '=', memberId).executeTakeFirstOrThrow();
    expect(activation.used_at).not.toBeNull();
    const voucher = await database.db.selectFrom('welcome_vouchers').selectAll().where('member_id', '=', memberId).executeTakeFirstOrThrow();
    expect(voucher).toMatchObject({ code: payload.voucher?.code, percent: 10, minimum_order_value: null, currency: 'EUR' });
    expect(await database.db.selectFrom('consents').select('id').where('member_id', '=', memberId).execute()).toHaveLength(1);

    const { body } = await graphql(api.yoga, STATUS, { variables: { id: memberId } });
    expect(body.data).toEqual({ registrationStatus: { memberId, state: 'ACTIVE' } });
  });

  it.each([
    ['social-10-percent-no-mov', 10, null],
    ['social-15-percent-no-mov', 15, null],
    ['social-15-percent-mov', 15, 100],
    ['social-20-percent-mov', 20, 150],
    ['viral', 10, null],
    [null, 10, null],
  ] as const)('gives a code with customization %s a %i %% voucher (minimum %s)', async (customization, percent, minimum) => {
    const { activationId } = await registered({ customization });
    const payload = await activate(activationId);
    expect(payload.voucher).toMatchObject({ percent, minimumOrderValue: minimum, currency: 'EUR' });
  });

  it('answers a used link of an active member ALREADY_ACTIVE (a second click), and changes nothing', async () => {
    const { codeId, activationId } = await registered({ language: 'de' });
    expect((await activate(activationId)).outcome).toBe('ACTIVATED');
    const again = await activate(activationId);
    expect(again).toMatchObject({ outcome: 'ALREADY_ACTIVE', voucher: null, language: 'de' });
    expect(await balanceOf(codeId)).toBe(4);
    expect(await database.db.selectFrom('welcome_vouchers').select('code').execute()).toHaveLength(1);
  });

  it('answers ACTIVATION_LINK_UNKNOWN for unknown or malformed ids', async () => {
    await registered();
    for (const id of ['A'.repeat(43), 'short', '', `${'A'.repeat(42)}!`, 'x'.repeat(5000)]) {
      expect(await activate(id)).toEqual({ outcome: null, voucher: null, firstName: null, language: null, memberId: null, userErrors: [{ code: 'ACTIVATION_LINK_UNKNOWN', field: 'activationId', messageId: 'activationError.invalidLink.text' }] });
    }
  });

  it('refuses an expired link → ACTIVATION_LINK_UNUSABLE: valid until the last millisecond before its expiry, not at it', async () => {
    const registeredAt = api.clock.fix('2026-11-20T09:00:00.000Z');
    const { memberId, activationId } = await registered({ language: 'sv' });
    const expiry = await database.db.selectFrom('activations').select('expires_at').where('member_id', '=', memberId).executeTakeFirstOrThrow();
    expect(expiry.expires_at).toBe(new Date(registeredAt.getTime() + ACTIVATION_VALIDITY_DAYS * DAY_MS).toISOString());
    api.clock.fix(expiry.expires_at);
    expect(await activate(activationId)).toMatchObject({ outcome: null, language: 'sv', voucher: null, userErrors: [{ code: 'ACTIVATION_LINK_UNUSABLE', field: 'activationId', messageId: 'activationError.failed.text' }] });
    const member = await database.db.selectFrom('members').select('status').where('id', '=', memberId).executeTakeFirstOrThrow();
    expect(member.status).toBe('pending');
    api.clock.fix(new Date(Date.parse(expiry.expires_at) - 1));
    expect(await activate(activationId)).toMatchObject({ outcome: 'ACTIVATED', language: 'sv' });
  });

  it('refuses a superseded link → ACTIVATION_LINK_UNUSABLE; the newest one works; then the old one says ALREADY_ACTIVE', async () => {
    const { code, email, memberId } = await registered();
    await graphql(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
    const [older, newer] = await activationIdsFor(database.db, email);
    if (!older || !newer) throw new Error('expected two links');
    expect((await activate(older)).userErrors.map((e) => e.code)).toEqual(['ACTIVATION_LINK_UNUSABLE']);
    expect((await activate(newer)).outcome).toBe('ACTIVATED');
    expect((await activate(older)).outcome).toBe('ALREADY_ACTIVE');
    const { body } = await graphql(api.yoga, STATUS, { variables: { id: memberId } });
    expect(body.data).toEqual({ registrationStatus: { memberId, state: 'ACTIVE' } });
  });

  it('refuses a blocked member → ACTIVATION_LINK_UNUSABLE', async () => {
    const { memberId, activationId } = await registered();
    await database.db.updateTable('members').set({ status: 'blocked' }).where('id', '=', memberId).execute();
    expect((await activate(activationId)).userErrors.map((e) => e.code)).toEqual(['ACTIVATION_LINK_UNUSABLE']);
    const { body } = await graphql(api.yoga, STATUS, { variables: { id: memberId } });
    expect(body.data).toEqual({ registrationStatus: null });
  });

  it('stores only the hash of an activation id: the database never contains the id itself', async () => {
    const { email, activationId } = await registered();
    const tables = ['members', 'consents', 'activations', 'email_outbox', 'registration_codes', 'welcome_vouchers'] as const;
    const dump = async () => {
      const rows = await Promise.all(tables.map((table) => database.db.selectFrom(table).selectAll().execute()));
      return JSON.stringify(rows);
    };
    expect(await dump()).toContain(email);
    expect(await dump()).not.toContain(activationId);
    const stored = await database.db.selectFrom('activations').select('token_hash').executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(activationId));
    await activate(activationId);
    expect(await dump()).not.toContain(activationId);
  });

  it('answers registrationStatus PENDING, and null for unknown ids', async () => {
    const { memberId } = await registered();
    const pending = await graphql(api.yoga, STATUS, { variables: { id: memberId } });
    expect(pending.body.data).toEqual({ registrationStatus: { memberId, state: 'PENDING' } });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nonsense']) {
      const unknown = await graphql(api.yoga, STATUS, { variables: { id } });
      expect(unknown.body.data).toEqual({ registrationStatus: null });
    }
  });

  it('activates one link once under 10 parallel attempts: one ACTIVATED, balance − 1 once', async () => {
    const { codeId, activationId } = await registered({ balance: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => activate(activationId)));
    expect(results.filter((r) => r.outcome === 'ACTIVATED')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'ALREADY_ACTIVE')).toHaveLength(9);
    expect(await balanceOf(codeId)).toBe(2);
  });

  it('lets every held place activate in parallel, never taking the balance below 0', async () => {
    const { id: codeId, code } = await insertCode(database.db, { balance: 6 });
    const emails = Array.from({ length: 6 }, () => uniqueEmail());
    for (const email of emails) {
      const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
      expect(body.data?.register.outcome).toBe('FORM_FINISHED');
    }
    // The inviter's balance drops meanwhile (e.g. an admin correction): their places were held all the same.
    await database.db.updateTable('registration_codes').set({ balance: 2 }).where('id', '=', codeId).execute();
    const ids = await Promise.all(emails.map((email) => latestActivationId(database.db, email)));
    const results = await Promise.all(ids.map((id) => activate(id)));
    expect(results.map((r) => r.outcome)).toEqual(Array(6).fill('ACTIVATED'));
    expect(await balanceOf(codeId)).toBe(0);
    const constraint = database.db.updateTable('registration_codes').set({ balance: sql`balance - 1` }).where('id', '=', codeId).execute();
    await expect(constraint).rejects.toThrow();
  });
});
