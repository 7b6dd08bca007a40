/**
 * The console's invitations (issue 13, ADR 046) on SQLite and PostgreSQL: the code list (filters,
 * keyset pages), a code's figures, creating one or many codes, changing balance and expiry,
 * revoking and rotating — each role as its permission allows, every refusal a translated
 * userError that changes nothing, every change audited, and what a visitor's code check then says.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLES } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import type { UserError } from '@velvet/validation/user-errors';
import { describe, expect, it } from 'vitest';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertCode, insertMember } from './support/factories.ts';
import { CHECK_CODE, graphql } from './support/graphql.ts';
import { REGISTER, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';
import type { CodeDetails } from './support/graphql.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = 'mutation login($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }';
const LIST = `query codes($filter: AdminCodeFilter, $first: Int, $after: String) {
  adminCodes(filter: $filter, first: $first, after: $after) {
    codes { code inviterName balance pending expiresAt customization landingSlug state replaced } nextCursor } }`;
const DETAIL = `query code($code: String!) { adminCode(code: $code) {
  code { code state balance } visits registrations activations funnel { event sessions } days { day visits registrations activations } } }`;
const CREATE = `mutation create($input: AdminCreateCodesInput!) { adminCreateCodes(input: $input) { codes userErrors { code field messageId } } }`;
const CHANGE = `mutation change($code: String!, $balance: Float, $expiresAt: String, $clearExpiry: Boolean) {
  adminChangeCode(code: $code, balance: $balance, expiresAt: $expiresAt, clearExpiry: $clearExpiry) { code userErrors { code field messageId } } }`;
const REVOKE = 'mutation revoke($code: String!) { adminRevokeCode(code: $code) { code userErrors { code field messageId } } }';
const ROTATE = 'mutation rotate($code: String!) { adminRotateCode(code: $code) { code newCode userErrors { code field messageId } } }';
const RELEASE = 'mutation release($code: String!) { adminReleaseCode(code: $code) { code registered dropped userErrors { code field messageId } } }';
const AUDIT = `query a($action: String, $target: String) { auditLog(action: $action, target: $target) { entries { actorEmail action target details } } }`;

interface CodeListing {
  code: string;
  inviterName: string;
  balance: number;
  pending: number;
  expiresAt: string | null;
  customization: string | null;
  landingSlug: string | null;
  state: string;
  replaced: boolean;
}
type Payload = { code?: string | null; newCode?: string | null; codes?: string[]; userErrors: UserError[] };
type Body<T> = { data?: T; errors?: readonly { extensions?: Record<string, unknown> }[] };

const DAY_MS = 86_400_000;
const future = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

describe.each(ENGINES)('admin invitations on %s', (engine) => {
  const { database, api } = engineApi(engine);
  const db = () => database.db;

  const call = <T>(query: string, token: string | null, variables: Record<string, unknown> = {}) =>
    graphql<T>(api.yoga, query, { variables, headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.body as Body<T>);

  async function signedIn(role: AdminRole = 'operator') {
    const email = `${role}-${randomUUID()}@example.test`;
    const created = await createAdminUser(db(), { email, password: PASSWORD, role });
    if (!created.ok) throw new Error(created.errors.join());
    const token = (await call<{ adminLogin: { token: string | null } }>(LOGIN, null, { email, password: PASSWORD })).data?.adminLogin.token;
    if (!token) throw new Error('sign-in failed');
    return { email, token };
  }
  const list = async (token: string, filter: Record<string, unknown>, first?: number, after?: string | null) => {
    const body = await call<{ adminCodes: { codes: CodeListing[]; nextCursor: string | null } }>(LIST, token, { filter, first, after });
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data.adminCodes;
  };
  const mutate = async (query: string, token: string, variables: Record<string, unknown>): Promise<Payload> => {
    const body = await call<Record<string, Payload>>(query, token, variables);
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return Object.values(body.data)[0] as Payload;
  };
  const check = async (registrationCode: string) =>
    (await graphql<{ registrationCodeDetails: CodeDetails }>(api.yoga, CHECK_CODE, { variables: { registrationCode } })).body.data!.registrationCodeDetails;
  const register = async (registrationCode: string) =>
    (await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(registrationCode) } })).body.data!.register;
  const row = (code: string) => db().selectFrom('registration_codes').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
  const auditCount = async () => Number((await db().selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('lets every role read the list and a code, and only owner and operator change codes (checked on the server)', async () => {
    for (const role of ADMIN_ROLES) {
      const { token } = await signedIn(role);
      const { code } = await insertCode(db(), { balance: 4 });
      expect((await list(token, { code })).codes.map((c) => c.code)).toEqual([code]);
      const detail = await call<{ adminCode: { code: { code: string } } | null }>(DETAIL, token, { code });
      expect(detail.data?.adminCode?.code.code).toBe(code);

      const allowed = role === 'owner' || role === 'operator';
      const attempts: [string, Record<string, unknown>][] = [
        [CREATE, { input: { inviterName: 'Ada', balance: 3 } }],
        [CHANGE, { code, balance: 9 }],
        [REVOKE, { code }],
        [ROTATE, { code }],
      ];
      const before = await auditCount();
      for (const [query, variables] of attempts.slice(0, allowed ? 2 : 4)) {
        const body = await call(query, token, variables);
        if (allowed) expect(body.errors).toBeUndefined();
        else expect(body.errors?.[0]?.extensions?.code, `${role} ${query.slice(0, 30)}`).toBe('FORBIDDEN');
      }
      expect((await row(code)).balance).toBe(allowed ? 9 : 4);
      expect((await row(code)).revoked_at).toBeNull();
      expect(await auditCount()).toBe(before + (allowed ? 2 : 0));
    }
    expect((await call(LIST, null, {})).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('creates one or many codes for a new inviter with the CLI\'s options, each audited with what it is', async () => {
    const { token, email } = await signedIn('operator');
    const expiresAt = future(30).slice(0, 10);
    const created = await mutate(CREATE, token, {
      input: { inviterName: 'Margaux', count: 3, balance: 12, expiresAt, customization: 'viral', landingSlug: 'VIP', requiresValidityTimestamp: true },
    });
    expect(created.userErrors).toEqual([]);
    expect(created.codes).toHaveLength(3);
    expect(new Set(created.codes).size).toBe(3);
    const listed = await list(token, { inviter: 'margaux' });
    expect(listed.codes.map((c) => c.code).sort()).toEqual([...created.codes!].sort());
    expect(listed.codes[0]).toMatchObject({ inviterName: 'Margaux', balance: 12, customization: 'viral', landingSlug: 'vip', state: 'VALID', expiresAt: `${expiresAt}T23:59:59.999Z` });
    const stored = await row(created.codes![0]!);
    expect(stored.requires_validity_timestamp).toBe(true);
    // A chosen code, as `code create --code` makes it: normalised, one.
    const chosen = `mine-${randomUUID().slice(0, 8)}`;
    expect(await mutate(CREATE, token, { input: { inviterName: 'Margaux', balance: 2, code: ` ${chosen} ` } })).toEqual({ codes: [chosen.toUpperCase()], userErrors: [] });

    const audit = await call<{ auditLog: { entries: { actorEmail: string; action: string; target: string; details: string }[] } }>(AUDIT, token, {});
    // The operator may not read the audit log; the owner may.
    expect(audit.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const owner = await signedIn('owner');
    const entries = (await call<{ auditLog: { entries: { actorEmail: string; action: string; target: string; details: string }[] } }>(AUDIT, owner.token, { target: created.codes![0] })).data!.auditLog.entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorEmail: email, action: 'code.created', target: created.codes![0] });
    expect(JSON.parse(entries[0]!.details)).toMatchObject({ before: null, after: { inviter: 'Margaux', balance: 12, customization: 'viral', landingSlug: 'vip' } });
  });

  it('refuses bad input with a translated message for the field, and changes nothing', async () => {
    const { token } = await signedIn('operator');
    const { code } = await insertCode(db(), { balance: 5, expiresAt: future(10) });
    const before = { row: await row(code), audit: await auditCount() };
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ balance: -1 }, 'balance', 'admin.codes.error.balance'],
      [{ balance: 1e12 }, 'balance', 'admin.codes.error.balance'],
      [{ balance: 2.5 }, 'balance', 'admin.codes.error.balance'],
      [{ expiresAt: '2020-01-01' }, 'expiresAt', 'admin.codes.error.expiryPast'],
      [{ expiresAt: 'next tuesday' }, 'expiresAt', 'admin.codes.error.expiry'],
      [{}, 'balance', 'admin.codes.error.nothing'],
    ];
    for (const [variables, field, messageId] of refusals) {
      const payload = await mutate(CHANGE, token, { code, ...variables });
      expect(payload.code).toBeNull();
      expect(payload.userErrors, JSON.stringify(variables)).toEqual([{ code: 'INVALID_FIELD', field, messageId }]);
    }
    expect(await mutate(CHANGE, token, { code: 'NO-SUCH-CODE', balance: 3 })).toEqual({
      code: null,
      userErrors: [{ code: 'REGISTRATION_CODE_INVALID', field: 'code', messageId: 'admin.codes.error.unknown' }],
    });
    for (const query of [REVOKE, ROTATE]) {
      expect((await mutate(query, token, { code: 'NO-SUCH-CODE' })).userErrors).toEqual([
        { code: 'REGISTRATION_CODE_INVALID', field: 'code', messageId: 'admin.codes.error.unknown' },
      ]);
    }
    const creations: [Record<string, unknown>, string, string][] = [
      [{ inviterName: 'A', balance: -1 }, 'balance', 'admin.codes.error.balance'],
      [{ inviterName: 'A', balance: 1e12 }, 'balance', 'admin.codes.error.balance'],
      [{ inviterName: ' ', balance: 1 }, 'inviterName', 'admin.codes.error.inviter'],
      [{ inviterName: 'A', balance: 1, count: 101 }, 'count', 'admin.codes.error.count'],
      [{ inviterName: 'A', balance: 1, expiresAt: '2001-02-03' }, 'expiresAt', 'admin.codes.error.expiryPast'],
      [{ inviterName: 'A', balance: 1, landingSlug: 'not a slug!' }, 'landingSlug', 'admin.codes.error.slug'],
      [{ inviterName: 'A', balance: 1, customization: 'nonsense' }, 'customization', 'admin.codes.error.customization'],
      [{ inviterName: 'A', balance: 1, code: 'no spaces' }, 'code', 'admin.codes.error.code'],
      [{ inviterName: 'A', balance: 1, code: 'MINE-1', count: 2 }, 'count', 'admin.codes.error.oneCode'],
      [{ inviterName: 'A', balance: 1, code: code.toLowerCase() }, 'code', 'admin.codes.error.exists'],
    ];
    for (const [input, field, messageId] of creations) {
      const payload = await mutate(CREATE, token, { input });
      expect(payload.codes).toEqual([]);
      expect(payload.userErrors, JSON.stringify(input)).toContainEqual({ code: 'INVALID_FIELD', field, messageId });
    }
    expect(await row(code)).toEqual(before.row);
    expect(await auditCount()).toBe(before.audit);
  });

  it('changes balance and expiry (or removes the expiry), audited with before and after', async () => {
    const { token } = await signedIn('owner');
    const oldExpiry = future(5);
    const { code } = await insertCode(db(), { balance: 5, expiresAt: oldExpiry });
    const newExpiry = future(60);
    expect(await mutate(CHANGE, token, { code: code.toLowerCase(), balance: 40, expiresAt: newExpiry })).toEqual({ code, userErrors: [] });
    expect(await row(code)).toMatchObject({ balance: 40, expires_at: newExpiry });
    expect((await mutate(CHANGE, token, { code, balance: null, expiresAt: null, clearExpiry: true })).userErrors).toEqual([]);
    expect(await row(code)).toMatchObject({ balance: 40, expires_at: null });
    const entries = (await call<{ auditLog: { entries: { action: string; details: string }[] } }>(AUDIT, token, { target: code, action: 'code.changed' })).data!.auditLog.entries;
    expect(entries.map((e) => JSON.parse(e.details))).toEqual([
      { before: { balance: 40, expiresAt: newExpiry }, after: { balance: 40, expiresAt: null } },
      { before: { balance: 5, expiresAt: oldExpiry }, after: { balance: 40, expiresAt: newExpiry } },
    ]);
  });

  it('revokes a code: visitors are refused as withdrawn, the list says revoked, and it cannot be changed any more', async () => {
    const { token } = await signedIn('operator');
    const { code } = await insertCode(db(), { balance: 5, inviterFirstName: 'Léa' });
    expect((await check(code)).errors).toEqual([]);
    expect(await mutate(REVOKE, token, { code })).toEqual({ code, userErrors: [] });
    const refused = await check(code);
    expect(refused.errors).toEqual(['REGISTRATION_CODE_REVOKED']);
    expect(refused.countryOptions).toEqual([]);
    // A registration that skipped the check is refused too, and no member is made.
    const members = await db().selectFrom('members').select('id').where('registration_code_id', '=', (await row(code)).id).execute();
    expect(await register(code)).toEqual({
      outcome: null,
      memberId: null,
      userErrors: [{ code: 'REGISTRATION_CODE_REVOKED', field: 'registrationCode', messageId: 'invitation.revoked' }],
    });
    expect(await db().selectFrom('members').select('id').where('registration_code_id', '=', (await row(code)).id).execute()).toEqual(members);
    expect((await list(token, { code })).codes[0]).toMatchObject({ state: 'REVOKED', replaced: false });
    expect((await list(token, { code, state: 'REVOKED' })).codes).toHaveLength(1);
    expect((await list(token, { code, state: 'VALID' })).codes).toHaveLength(0);
    const again = { code: 'REGISTRATION_CODE_REVOKED', field: 'code', messageId: 'admin.codes.error.revoked' };
    expect((await mutate(REVOKE, token, { code })).userErrors).toEqual([again]);
    expect((await mutate(CHANGE, token, { code, balance: 1 })).userErrors).toEqual([again]);
    expect((await mutate(ROTATE, token, { code })).userErrors).toEqual([again]);
    expect((await row(code)).balance).toBe(5);
  });

  it('releases a quarantined code: the held registrations register while it has places, audited in the quarantine’s end; nobody else may, and twice finds nothing', async () => {
    const { email, token } = await signedIn('operator');
    const { id, code } = await insertCode(db(), { balance: 2 });
    const quarantinedAt = new Date(Date.now() - 60_000).toISOString();
    await db().updateTable('registration_codes').set({ quarantined_at: quarantinedAt }).where('id', '=', id).execute();
    for (let i = 0; i < 3; i++) expect((await register(code)).outcome).toBe('PENDING_REVIEW');
    expect((await list(token, { code })).codes[0]).toMatchObject({ state: 'QUARANTINED' });
    const members = () => db().selectFrom('members').select('id').where('registration_code_id', '=', id).execute();
    const held = () => db().selectFrom('held_registrations').select('id').where('registration_code_id', '=', id).execute();

    for (const role of ['viewer', 'support', 'privacy'] as const) {
      expect((await call(RELEASE, (await signedIn(role)).token, { code })).errors?.[0]?.extensions?.code, role).toBe('FORBIDDEN');
    }
    expect(await held()).toHaveLength(3);

    const released = await call<{ adminReleaseCode: unknown }>(RELEASE, token, { code: code.toLowerCase() });
    expect(released.data?.adminReleaseCode).toEqual({ code, registered: 2, dropped: 1, userErrors: [] });
    expect(await members()).toHaveLength(2);
    expect(await held()).toEqual([]);
    expect((await list(token, { code })).codes[0]!.state).not.toBe('QUARANTINED');
    const owner = await signedIn('owner');
    const entries = (await call<{ auditLog: { entries: { actorEmail: string; details: string }[] } }>(AUDIT, owner.token, { target: code, action: 'code.released' })).data!.auditLog.entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actorEmail).toBe(email);
    expect(JSON.parse(entries[0]!.details)).toEqual({ before: { quarantinedAt, heldRegistrations: 3 }, after: { quarantinedAt: null } });

    const auditBefore = await auditCount();
    const notQuarantined = { code: 'INVALID_FIELD', field: 'code', messageId: 'admin.codes.error.notQuarantined' };
    expect(await mutate(RELEASE, token, { code })).toEqual({ code: null, registered: 0, dropped: 0, userErrors: [notQuarantined] });
    expect((await mutate(RELEASE, token, { code: 'NOSUCHCODE1' })).userErrors).toEqual([{ code: 'REGISTRATION_CODE_INVALID', field: 'code', messageId: 'admin.codes.error.unknown' }]);
    // Refusals change nothing and record nothing.
    expect(await members()).toHaveLength(2);
    expect(await auditCount()).toBe(auditBefore);
  });

  it('rotates a code: a new one with the free places, the inviter emailed, the old one refused as replaced', async () => {
    const { token } = await signedIn('operator');
    const { code } = await insertCode(db(), { balance: 6, inviterFirstName: 'Noor', landingSlug: 'vip' });
    const rotated = await mutate(ROTATE, token, { code });
    expect(rotated.userErrors).toEqual([]);
    expect(rotated.code).toBe(code);
    const newCode = rotated.newCode!;
    expect(newCode).toMatch(/^[A-Z0-9]{8}$/);
    expect((await check(newCode)).errors).toEqual([]);
    const old = await check(code);
    expect(old.errors).toEqual(['REGISTRATION_CODE_REPLACED']);
    expect(old.invitorName).toBe('Noor');
    expect((await register(code)).userErrors).toEqual([{ code: 'REGISTRATION_CODE_REPLACED', field: 'registrationCode', messageId: 'invitation.replaced' }]);
    expect((await register(newCode)).outcome).toBe('FORM_FINISHED');
    expect((await list(token, { code })).codes[0]).toMatchObject({ state: 'REVOKED', replaced: true });
    expect((await list(token, { code: newCode })).codes[0]).toMatchObject({ state: 'VALID', balance: 6, landingSlug: 'vip', inviterName: 'Noor' });
    const mail = await db().selectFrom('email_outbox').select('template').where('recipient', 'like', 'member-%').execute();
    expect(mail.length).toBeGreaterThan(0);
  });

  it('filters by inviter, customization, slug and state, and pages newest first with a cursor', async () => {
    const { token } = await signedIn('viewer');
    const inviter = `Zoé${randomUUID().slice(0, 6)}`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await insertCode(db(), { inviterFirstName: inviter, customization: i % 2 ? 'viral' : null, landingSlug: i === 0 ? 'share' : null })).code);
    const expired = (await insertCode(db(), { inviterFirstName: inviter, expiresAt: new Date(Date.now() - DAY_MS).toISOString() })).code;
    const full = (await insertCode(db(), { inviterFirstName: inviter, balance: 1, pendingMembers: 1 })).code;
    const zero = (await insertCode(db(), { inviterFirstName: inviter, balance: 0 })).code;
    await db().updateTable('registration_codes').set({ quarantined_at: new Date().toISOString() }).where('code', '=', made[4]!).execute();

    const all = await list(token, { inviter: inviter.toUpperCase() });
    expect(all.codes).toHaveLength(8);
    const byState = Object.fromEntries(all.codes.map((c) => [c.code, c.state]));
    expect(byState).toMatchObject({ [expired]: 'EXPIRED', [full]: 'EXHAUSTED', [zero]: 'EXHAUSTED', [made[4]!]: 'QUARANTINED', [made[0]!]: 'VALID' });
    for (const state of ['VALID', 'EXPIRED', 'EXHAUSTED', 'QUARANTINED']) {
      const codes = (await list(token, { inviter, state })).codes;
      expect(codes.map((c) => c.state).every((s) => s === state)).toBe(true);
      expect(codes.length).toBe(all.codes.filter((c) => c.state === state).length);
    }
    expect((await list(token, { inviter, customization: 'viral' })).codes.map((c) => c.code).sort()).toEqual([made[1], made[3]].sort());
    expect((await list(token, { inviter, slug: 'SHARE' })).codes.map((c) => c.code)).toEqual([made[0]]);

    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const page = await list(token, { inviter }, 3, after);
      seen.push(...page.codes.map((c) => c.code));
      after = page.nextCursor;
      if (!after) break;
    }
    expect(seen).toEqual(all.codes.map((c) => c.code));
    expect(new Set(seen).size).toBe(8);
    // A cursor that is not one is the first page, not an error.
    expect((await list(token, { inviter }, 3, 'garbage')).codes.map((c) => c.code)).toEqual(seen.slice(0, 3));
    expect((await list(token, { code: 'not a code!' })).codes).toEqual([]);
  });

  it("shows a code's visits, registrations, activations, funnel and days", async () => {
    const { token } = await signedIn('viewer');
    const { id, code } = await insertCode(db(), { balance: 10 });
    await insertMember(db(), { status: 'pending', registrationCodeId: id });
    await insertMember(db(), { status: 'active', registrationCodeId: id });
    await db().updateTable('members').set({ activated_at: new Date().toISOString() }).where('registration_code_id', '=', id).where('status', '=', 'active').execute();
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    const event = (name: string, session: string) => ({
      id: randomUUID(), event: name, session_id: session, hour: hour.toISOString(), language: 'de', country: 'DE', variant: null,
      registration_code_id: id, landing_slug: null, analytics_consent: true,
    });
    await db().insertInto('funnel_events').values([event('landing', 's1'), event('landing', 's2'), event('landing', 's3'), event('code_submitted', 's1'), event('email_submitted', 's1')]).execute();
    const detail = (await call<{ adminCode: { visits: number; registrations: number; activations: number; funnel: { event: string; sessions: number }[]; days: { day: string; visits: number; registrations: number; activations: number }[] } }>(DETAIL, token, { code })).data!.adminCode;
    expect(detail).toMatchObject({ visits: 3, registrations: 2, activations: 1 });
    expect(detail.funnel.slice(0, 4)).toEqual([
      { event: 'landing', sessions: 3 },
      { event: 'code_entered', sessions: 0 },
      { event: 'code_submitted', sessions: 1 },
      { event: 'email_submitted', sessions: 1 },
    ]);
    expect(detail.days).toHaveLength(30);
    expect(detail.days.at(-1)).toEqual({ day: hour.toISOString().slice(0, 10), visits: 3, registrations: 2, activations: 1 });
    expect((await call<{ adminCode: null }>(DETAIL, token, { code: 'NO-SUCH-CODE' })).data!.adminCode).toBeNull();
  });
});
