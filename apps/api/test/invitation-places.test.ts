/**
 * The places of an invitation (ADR 029), on SQLite and PostgreSQL: a pending registration
 * holds a place only while its activation link can still be used; pruning deletes
 * registrations that were never activated; the answer for an address that awaits
 * activation gives nobody its memberId.
 */
import { codeError } from '@velvet/validation/user-errors';
import { describe, expect, it } from 'vitest';
import { ACTIVATION_VALIDITY_DAYS } from '../src/domain/activation-links.ts';
import type { RegisterInput } from '@velvet/validation/registration';
import { RETENTION_DAYS, pruneExpiredData } from '../src/jobs/retention.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { ACTIVATE, REGISTER, activationIdsFor, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const DAY_MS = 86_400_000;
const START = new Date('2026-11-24T10:00:00.000Z');
/** Just after the links of registrations made at START expired. */
const EXPIRED = new Date(START.getTime() + ACTIVATION_VALIDITY_DAYS * DAY_MS + 1000);

const CHECK = /* GraphQL */ `
  query check($code: String!) {
    registrationCodeDetails(registrationCode: $code) { errors }
  }
`;
const STATUS = /* GraphQL */ `
  query status($id: String!) {
    registrationStatus(memberId: $id) { memberId state }
  }
`;

describe.each(ENGINES)('invitation places on %s', (engine) => {
  const { database, api } = engineApi(engine);

  async function register(input: Partial<RegisterInput> & { registrationCode: string }): Promise<RegisterPayload> {
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(input.registrationCode, input) } });
    expect(body.errors).toBeUndefined();
    const payload = body.data?.register;
    if (!payload) throw new Error('no register payload');
    return payload;
  }
  async function codeErrors(code: string): Promise<string[]> {
    const { body } = await graphql<{ registrationCodeDetails: { errors: string[] } }>(api.yoga, CHECK, { variables: { code } });
    return body.data?.registrationCodeDetails.errors ?? ['no answer'];
  }
  async function activate(activationId: string): Promise<{ outcome: string | null; memberId: string | null; userErrors: { code: string }[] }> {
    const { body } = await graphql<{ activateAccount: { outcome: string | null; memberId: string | null; userErrors: { code: string }[] } }>(api.yoga, ACTIVATE, { variables: { activationId } });
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data.activateAccount;
  }
  const balanceOf = async (id: string) =>
    (await database.db.selectFrom('registration_codes').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance;

  it('three throw-away registrations block a balance-3 code only until their links expire', async () => {
    const { code } = await insertCode(database.db, { balance: 3 });
    api.clock.fix(START);
    for (let i = 0; i < 3; i++) expect((await register({ registrationCode: code })).outcome).toBe('FORM_FINISHED');
    expect(await codeErrors(code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
    expect((await register({ registrationCode: code })).userErrors.map((e) => e.code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);

    // A second before the links expire the places are still held…
    api.clock.fix(new Date(EXPIRED.getTime() - 2000));
    expect(await codeErrors(code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
    // …then they are free again: three new registrations, and the fourth is refused.
    api.clock.fix(EXPIRED);
    expect(await codeErrors(code)).toEqual([]);
    for (let i = 0; i < 3; i++) expect((await register({ registrationCode: code })).outcome).toBe('FORM_FINISHED');
    expect((await register({ registrationCode: code })).userErrors.map((e) => e.code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
  });

  it('gives a released place to one of two parallel registrations only', async () => {
    const { id, code } = await insertCode(database.db, { balance: 1 });
    api.clock.fix(START);
    expect((await register({ registrationCode: code })).outcome).toBe('FORM_FINISHED');
    api.clock.fix(EXPIRED);
    const results = await Promise.all(Array.from({ length: 6 }, () => register({ registrationCode: code })));
    expect(results.filter((r) => r.outcome === 'FORM_FINISHED')).toHaveLength(1);
    for (const refused of results.filter((r) => r.outcome !== 'FORM_FINISHED')) {
      expect(refused.userErrors.map((e) => e.code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
    }
    expect(await balanceOf(id)).toBe(1);
  });

  it('the expired registration: its old link fails; registering again takes a free place, and the new link activates', async () => {
    const { id, code } = await insertCode(database.db, { balance: 1 });
    const email = uniqueEmail('late');
    api.clock.fix(START);
    const first = await register({ registrationCode: code, email });
    expect(first.outcome).toBe('FORM_FINISHED');
    const oldLink = await latestActivationId(database.db, email);

    api.clock.fix(EXPIRED);
    // The old link is expired: the activation error page, nothing changes.
    expect(await activate(oldLink)).toMatchObject({ outcome: null, userErrors: [{ code: 'ACTIVATION_LINK_UNUSABLE' }] });
    // Registering again: the place is free, so it is theirs again, with a fresh email (no id for whoever typed it).
    expect(await register({ registrationCode: code, email, firstName: 'Someone Else' })).toEqual({ outcome: 'ACCOUNT_PENDING', memberId: null, userErrors: [] });
    expect(await activationIdsFor(database.db, email)).toHaveLength(2);
    expect(await codeErrors(code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
    expect((await register({ registrationCode: code })).userErrors.map((e) => e.code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);

    const activated = await activate(await latestActivationId(database.db, email));
    expect(activated).toMatchObject({ outcome: 'ACTIVATED', memberId: first.memberId });
    expect(await balanceOf(id)).toBe(0);
    const member = await database.db.selectFrom('members').select(['first_name', 'status']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(member).toEqual({ first_name: 'Zoë', status: 'active' });
  });

  it('the expired registration finds its place taken: the code is full for it like for anyone', async () => {
    const { code } = await insertCode(database.db, { balance: 1 });
    const email = uniqueEmail('too-late');
    api.clock.fix(START);
    expect((await register({ registrationCode: code, email })).outcome).toBe('FORM_FINISHED');
    api.clock.fix(EXPIRED);
    expect((await register({ registrationCode: code })).outcome).toBe('FORM_FINISHED');
    const again = await register({ registrationCode: code, email });
    expect(again).toEqual({ outcome: null, memberId: null, userErrors: [codeError('REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS')] });
    expect(await activationIdsFor(database.db, email)).toHaveLength(1);
  });

  it('the expired registration takes its new place on the code it uses now', async () => {
    const full = await insertCode(database.db, { balance: 1 });
    const other = await insertCode(database.db, { balance: 2 });
    const email = uniqueEmail('moved');
    api.clock.fix(START);
    expect((await register({ registrationCode: full.code, email })).outcome).toBe('FORM_FINISHED');
    api.clock.fix(EXPIRED);
    expect((await register({ registrationCode: full.code })).outcome).toBe('FORM_FINISHED');
    expect((await register({ registrationCode: other.code, email })).outcome).toBe('ACCOUNT_PENDING');
    expect(await activate(await latestActivationId(database.db, email))).toMatchObject({ outcome: 'ACTIVATED' });
    expect([await balanceOf(full.id), await balanceOf(other.id)]).toEqual([1, 1]);
  });

  it("keeps each code's count of pending members exact through every change: the count decides whether a place is free without counting", async () => {
    const first = await insertCode(database.db, { balance: 3, pendingMembers: 1 });
    const second = await insertCode(database.db, { balance: 2 });
    const counted = async () => {
      const codes = await database.db.selectFrom('registration_codes').select(['id', 'pending_members']).where('id', 'in', [first.id, second.id]).execute();
      const pending = await database.db
        .selectFrom('members')
        .select(['registration_code_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', '=', 'pending')
        .groupBy('registration_code_id')
        .execute();
      const real = (id: string) => Number(pending.find((p) => p.registration_code_id === id)?.n ?? 0);
      return codes.map((c) => [c.pending_members, real(c.id)]);
    };
    const exact = async () => {
      for (const [kept, real] of await counted()) expect(kept).toBe(real);
    };
    await exact();
    api.clock.fix(START);
    const moving = uniqueEmail('moving');
    const activating = uniqueEmail('activating');
    for (const email of [moving, activating]) expect((await register({ registrationCode: first.code, email })).outcome).toBe('FORM_FINISHED');
    await exact();
    // The code is full now (3 pending on 3 places): the check counts, and refuses.
    expect(await codeErrors(first.code)).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
    expect(await activate(await latestActivationId(database.db, activating))).toMatchObject({ outcome: 'ACTIVATED' });
    await exact();
    // Blocked and unblocked (the CLI's member block/unblock).
    await database.db.updateTable('members').set({ status: 'blocked' }).where('email', '=', moving).execute();
    await exact();
    await database.db.updateTable('members').set({ status: 'pending' }).where('email', '=', moving).execute();
    await exact();
    // The link expires; registering on the other code moves the member there.
    api.clock.fix(EXPIRED);
    expect((await register({ registrationCode: second.code, email: moving })).outcome).toBe('ACCOUNT_PENDING');
    await exact();
    expect(await counted()).toEqual(expect.arrayContaining([[1, 1]]));
    // Pruned a month later, and a member deleted outright.
    await pruneExpiredData(database.db, new Date(EXPIRED.getTime() + (RETENTION_DAYS.expiredRegistrations + 9) * DAY_MS));
    await exact();
    await database.db.deleteFrom('members').where('email', '=', moving).execute();
    await exact();
  });

  it('pruning deletes a registration a month after its link expired; the address can then register afresh', async () => {
    const { code } = await insertCode(database.db, { balance: 5 });
    const [old, recent, live] = [uniqueEmail('old'), uniqueEmail('recent'), uniqueEmail('live')];
    api.clock.fix(START);
    const oldRegistration = await register({ registrationCode: code, email: old });
    api.clock.fix(new Date(START.getTime() + 2 * DAY_MS));
    await register({ registrationCode: code, email: recent });
    const pruneAt = new Date(EXPIRED.getTime() + RETENTION_DAYS.expiredRegistrations * DAY_MS + DAY_MS);
    api.clock.fix(new Date(pruneAt.getTime() - DAY_MS));
    await register({ registrationCode: code, email: live });

    const report = await pruneExpiredData(database.db, pruneAt);
    expect(report.expiredRegistrations).toBe(1);
    const left = await database.db.selectFrom('members').select('email').where('status', '=', 'pending').orderBy('email').execute();
    expect(left.map((m) => m.email)).toEqual([live, recent].sort());
    expect(await database.db.selectFrom('consents').select('id').where('member_id', '=', oldRegistration.memberId ?? '').execute()).toEqual([]);
    expect(await database.db.selectFrom('activations').select('id').where('member_id', '=', oldRegistration.memberId ?? '').execute()).toEqual([]);

    api.clock.fix(pruneAt);
    const afresh = await register({ registrationCode: code, email: old });
    expect(afresh.outcome).toBe('FORM_FINISHED');
    expect(afresh.memberId).not.toBe(oldRegistration.memberId);
    expect((await pruneExpiredData(database.db, pruneAt)).expiredRegistrations).toBe(0);
  });

  it('an address that awaits activation: the second registration gets no memberId, the first registrant keeps theirs', async () => {
    const { code } = await insertCode(database.db, { balance: 1 });
    const email = uniqueEmail('victim');
    const first = await register({ registrationCode: code, email });
    expect(first.outcome).toBe('FORM_FINISHED');
    const stranger = await register({ registrationCode: code, email: email.toUpperCase() });
    expect(stranger).toEqual({ outcome: 'ACCOUNT_PENDING', memberId: null, userErrors: [] });
    // The email still went out again.
    expect(await activationIdsFor(database.db, email)).toHaveLength(2);
    // The original registrant's page keeps its live status.
    const { body } = await graphql<{ registrationStatus: { memberId: string; state: string } | null }>(api.yoga, STATUS, { variables: { id: first.memberId } });
    expect(body.data?.registrationStatus).toEqual({ memberId: first.memberId, state: 'PENDING' });
  });
});
