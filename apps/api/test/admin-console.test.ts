/**
 * The admin console's foundation (issue 13, ADR 045) on SQLite and PostgreSQL: roles checked on
 * the server, the second factor (TOTP and recovery codes), the owner's policy, sessions that end
 * on a password change, and the append-only audit log.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLES } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import type { UserError } from '@velvet/validation/user-errors';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = `mutation login($email: String!, $password: String!) {
  adminLogin(email: $email, password: $password) { token secondFactorChallenge userErrors { code field messageId } } }`;
const VERIFY = `mutation verify($challenge: String!, $code: String!) {
  adminVerifySecondFactor(challenge: $challenge, code: $code) { token secondFactorChallenge userErrors { code field messageId } } }`;
const SESSION = '{ adminSession { email role permissions secondFactorEnabled secondFactorRequired } }';
const FUNNEL = '{ funnelReport { sessions } }';
const GENERATE = 'mutation g($code: String!) { generateRegistrationLink(registrationCode: $code) { url userErrors { code } } }';
const START = 'mutation { adminStartSecondFactorSetup { secret uri setupToken } }';
const CONFIRM = `mutation c($setupToken: String!, $code: String!) {
  adminConfirmSecondFactorSetup(setupToken: $setupToken, code: $code) { recoveryCodes userErrors { code field messageId } } }`;
const AUDIT = `query a($action: String, $actor: String, $target: String, $first: Int, $after: String) {
  auditLog(action: $action, actor: $actor, target: $target, first: $first, after: $after) {
    entries { at actorEmail clientAddress action target details } nextCursor } }`;

interface SignIn {
  token: string | null;
  secondFactorChallenge: string | null;
  userErrors: UserError[];
}
interface AuditPage {
  entries: { at: string; actorEmail: string | null; clientAddress: string | null; action: string; target: string | null; details: string }[];
  nextCursor: string | null;
}

describe.each(ENGINES)('admin console on %s', (engine) => {
  const { database, api } = engineApi(engine);

  const bearer = (token: string | null): { headers: Record<string, string> } => ({ headers: token ? { authorization: `Bearer ${token}` } : {} });
  const call = <T = Record<string, unknown>>(query: string, token: string | null, variables: Record<string, unknown> = {}) =>
    graphql<T>(api.yoga, query, { variables, ...bearer(token) }).then((r) => r.body);

  async function newAdmin(role: AdminRole = 'owner') {
    const email = `${role}-${randomUUID()}@example.test`;
    const created = await createAdminUser(database.db, { email, password: PASSWORD, role });
    if (!created.ok) throw new Error(created.errors.join());
    return { email, id: created.value.id };
  }
  const login = async (email: string, password = PASSWORD) => (await call<{ adminLogin: SignIn }>(LOGIN, null, { email, password })).data!.adminLogin;
  async function signedIn(role: AdminRole = 'owner') {
    const admin = await newAdmin(role);
    const { token } = await login(admin.email);
    if (!token) throw new Error('sign-in failed');
    return { ...admin, token };
  }
  const codeAt = (secret: string, at: Date) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
  async function withSecondFactor(admin: { token: string }, at: Date) {
    const setup = (await call<{ adminStartSecondFactorSetup: { secret: string; uri: string; setupToken: string } }>(START, admin.token)).data!
      .adminStartSecondFactorSetup;
    const confirmed = await call<{ adminConfirmSecondFactorSetup: { recoveryCodes: string[]; userErrors: UserError[] } }>(CONFIRM, admin.token, {
      setupToken: setup.setupToken,
      code: codeAt(setup.secret, at),
    });
    return { ...setup, recoveryCodes: confirmed.data!.adminConfirmSecondFactorSetup.recoveryCodes };
  }
  const auditOf = async (token: string, filter: Record<string, unknown>) => (await call<{ auditLog: AuditPage }>(AUDIT, token, filter)).data!.auditLog;

  describe('roles', () => {
    it('checks every permission on the server: each role gets exactly what its table allows', async () => {
      const { code } = await insertCode(database.db);
      const expected: Record<AdminRole, { funnel: boolean; link: boolean; admins: boolean; audit: boolean }> = {
        owner: { funnel: true, link: true, admins: true, audit: true },
        operator: { funnel: true, link: true, admins: false, audit: false },
        support: { funnel: true, link: false, admins: false, audit: false },
        privacy: { funnel: true, link: false, admins: false, audit: true },
        viewer: { funnel: true, link: false, admins: false, audit: false },
      };
      for (const role of ADMIN_ROLES) {
        const { token } = await signedIn(role);
        const outcome = (body: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
          body.errors?.[0]?.extensions?.code === 'FORBIDDEN' ? false : body.errors ? `error ${JSON.stringify(body.errors)}` : true;
        const seen = {
          funnel: outcome(await call(FUNNEL, token)),
          link: outcome(await call(GENERATE, token, { code })),
          admins: outcome(await call('{ admins { email } }', token)),
          audit: outcome(await call(AUDIT, token, {})),
        };
        expect(seen, role).toEqual(expected[role]);
        const session = (await call<{ adminSession: { role: string; permissions: string[] } }>(SESSION, token)).data!.adminSession;
        expect(session.role, role).toBe(role.toUpperCase());
        expect(session.permissions.includes('codes.manage'), role).toBe(expected[role].link);
      }
    });

    it('lets the owner create admins, change roles and disable them — never the last active owner', async () => {
      const owner = await signedIn('owner');
      const email = `new-${randomUUID()}@example.test`;
      const created = await call<{ adminCreate: { admin: { id: string; role: string } | null; password: string | null; userErrors: UserError[] } }>(
        'mutation c($email: String!) { adminCreate(email: $email, role: SUPPORT) { admin { id role } password userErrors { code field messageId } } }',
        owner.token,
        { email: ` ${email.toUpperCase()} ` },
      );
      const { admin, password } = created.data!.adminCreate;
      expect(admin?.role).toBe('SUPPORT');
      expect(password).toMatch(/^[\w-]{24}$/);
      expect((await login(email, password!)).token).toBeTruthy();

      const again = await call<{ adminCreate: { userErrors: UserError[] } }>(
        'mutation c($email: String!) { adminCreate(email: $email, role: VIEWER) { userErrors { code field messageId } } }',
        owner.token,
        { email },
      );
      expect(again.data!.adminCreate.userErrors).toEqual([{ code: 'ADMIN_EXISTS', field: 'email', messageId: 'admin.admins.exists' }]);
      const malformed = await call<{ adminCreate: { userErrors: UserError[] } }>(
        'mutation { adminCreate(email: "not an address", role: VIEWER) { userErrors { code field messageId } } }',
        owner.token,
      );
      expect(malformed.data!.adminCreate.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }]);

      const SET_ROLE = 'mutation r($id: String!) { adminSetRole(adminId: $id, role: OPERATOR) { done userErrors { code messageId } } }';
      expect((await call<{ adminSetRole: { done: boolean } }>(SET_ROLE, owner.token, { id: admin!.id })).data!.adminSetRole.done).toBe(true);
      // The only owner cannot demote or disable themselves: the club would have no owner left.
      expect((await call<{ adminSetRole: { userErrors: UserError[] } }>(SET_ROLE, owner.token, { id: owner.id })).data!.adminSetRole.userErrors).toEqual([
        { code: 'LAST_OWNER', messageId: 'admin.admins.lastOwner' },
      ]);
      const DISABLE = 'mutation d($id: String!) { adminDisable(adminId: $id) { done userErrors { code } } }';
      expect((await call<{ adminDisable: { userErrors: UserError[] } }>(DISABLE, owner.token, { id: owner.id })).data!.adminDisable.userErrors).toEqual([
        { code: 'LAST_OWNER' },
      ]);
      // Disabling ends the admin's sessions at once and refuses their sign-in.
      const operator = await login(email, password!);
      expect((await call(SESSION, operator.token)).data).toMatchObject({ adminSession: { role: 'OPERATOR' } });
      expect((await call<{ adminDisable: { done: boolean } }>(DISABLE, owner.token, { id: admin!.id })).data!.adminDisable.done).toBe(true);
      expect((await call(SESSION, operator.token)).data).toEqual({ adminSession: null });
      expect((await login(email, password!)).userErrors).toEqual([{ code: 'INVALID_CREDENTIALS', field: null, messageId: 'admin.login.invalid' }]);

      const audit = await auditOf(owner.token, { target: email });
      expect(audit.entries.map((e) => e.action)).toEqual(['admin.disabled', 'admin.role-changed', 'admin.created']);
      expect(JSON.parse(audit.entries[1]!.details)).toEqual({ before: { role: 'support' }, after: { role: 'operator' } });
      expect(audit.entries.every((e) => e.actorEmail === owner.email)).toBe(true);
    });
  });

  describe('second factor', () => {
    it('signs in with password and a TOTP code; each code works once; a recovery code works once', async () => {
      const t0 = api.clock.fix('2026-11-24T10:00:00.000Z');
      const admin = await signedIn('operator');
      const factor = await withSecondFactor(admin, t0);
      expect(factor.uri).toMatch(/^otpauth:\/\/totp\/Velvet%20Rope:operator-/);
      expect(factor.recoveryCodes).toHaveLength(10);
      expect(new Set(factor.recoveryCodes).size).toBe(10);

      // The password alone no longer signs in: it gives a challenge.
      const t1 = api.clock.fix('2026-11-24T10:01:00.000Z');
      const step1 = await login(admin.email);
      expect(step1).toEqual({ token: null, secondFactorChallenge: expect.any(String), userErrors: [] });
      const verify = async (challenge: string, code: string) =>
        (await call<{ adminVerifySecondFactor: SignIn }>(VERIFY, null, { challenge, code })).data!.adminVerifySecondFactor;
      expect((await verify(step1.secondFactorChallenge!, '000000')).userErrors).toEqual([
        { code: 'INVALID_SECOND_FACTOR', field: 'code', messageId: 'admin.secondFactor.invalid' },
      ]);
      const code = codeAt(factor.secret, t1);
      const signed = await verify(step1.secondFactorChallenge!, code);
      expect(signed.token).toBeTruthy();
      expect((await call(SESSION, signed.token)).data).toMatchObject({ adminSession: { secondFactorEnabled: true } });
      // The same code, seen over a shoulder, is no good a second time.
      expect((await verify((await login(admin.email)).secondFactorChallenge!, code)).userErrors[0]?.code).toBe('INVALID_SECOND_FACTOR');

      // A recovery code (typed in lower case, without dashes) works once.
      const recovery = factor.recoveryCodes[3]!.replaceAll('-', '').toLowerCase();
      expect((await verify((await login(admin.email)).secondFactorChallenge!, recovery)).token).toBeTruthy();
      expect((await verify((await login(admin.email)).secondFactorChallenge!, recovery)).userErrors[0]?.code).toBe('INVALID_SECOND_FACTOR');

      // A challenge is good for five minutes.
      const late = await login(admin.email);
      api.clock.fix('2026-11-24T10:06:01.000Z');
      expect((await verify(late.secondFactorChallenge!, codeAt(factor.secret, new Date('2026-11-24T10:06:01.000Z')))).userErrors).toEqual([
        { code: 'SECOND_FACTOR_EXPIRED', field: null, messageId: 'admin.secondFactor.expired' },
      ]);
    });

    it('refuses a wrong first code and an altered setup token, and keeps the factor off', async () => {
      const at = api.clock.fix('2026-11-24T11:00:00.000Z');
      const admin = await signedIn('viewer');
      const setup = (await call<{ adminStartSecondFactorSetup: { secret: string; setupToken: string } }>(START, admin.token)).data!.adminStartSecondFactorSetup;
      const confirm = async (setupToken: string, code: string) =>
        (await call<{ adminConfirmSecondFactorSetup: { recoveryCodes: string[]; userErrors: UserError[] } }>(CONFIRM, admin.token, { setupToken, code })).data!
          .adminConfirmSecondFactorSetup;
      expect(await confirm(setup.setupToken, '123456')).toEqual({
        recoveryCodes: [],
        userErrors: [{ code: 'INVALID_SECOND_FACTOR', field: 'code', messageId: 'admin.secondFactor.invalid' }],
      });
      expect((await confirm(`${setup.setupToken}x`, codeAt(setup.secret, at))).userErrors[0]?.code).toBe('SECOND_FACTOR_NOT_STARTED');
      expect((await login(admin.email)).token).toBeTruthy();
    });

    it("holds every admin without a second factor to its set-up once the owner requires one", async () => {
      const owner = await signedIn('owner');
      const operator = await signedIn('operator');
      const POLICY = 'mutation p($on: Boolean!) { adminSetSecurityPolicy(requireSecondFactor: $on) { done } }';
      expect((await call(POLICY, operator.token, { on: true })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await call(POLICY, owner.token, { on: true })).data).toEqual({ adminSetSecurityPolicy: { done: true } });
      expect((await call(FUNNEL, operator.token)).errors?.[0]?.extensions?.code).toBe('SECOND_FACTOR_REQUIRED');
      expect((await call(SESSION, operator.token)).data).toMatchObject({ adminSession: { secondFactorRequired: true } });
      await withSecondFactor(operator, api.clock.fix('2026-11-24T12:00:00.000Z'));
      expect((await call(FUNNEL, operator.token)).errors).toBeUndefined();
    });
  });

  it('ends every session of an admin who changes their password, and the challenges issued before', async () => {
    const at = api.clock.fix('2026-11-24T13:00:00.000Z');
    const admin = await signedIn('support');
    const other = await login(admin.email);
    const factor = await withSecondFactor(admin, at);
    const pending = await login(admin.email);
    const CHANGE = 'mutation c($current: String!, $next: String!) { adminChangePassword(currentPassword: $current, newPassword: $next) { done userErrors { code field messageId } } }';
    expect((await call<{ adminChangePassword: unknown }>(CHANGE, admin.token, { current: 'wrong password!!', next: 'a new long password' })).data!.adminChangePassword).toEqual({
      done: false,
      userErrors: [{ code: 'WRONG_PASSWORD', field: 'currentPassword', messageId: 'admin.password.currentWrong' }],
    });
    expect((await call<{ adminChangePassword: unknown }>(CHANGE, admin.token, { current: PASSWORD, next: 'short' })).data!.adminChangePassword).toEqual({
      done: false,
      userErrors: [{ code: 'INVALID_FIELD', field: 'newPassword', messageId: 'admin.password.tooShort' }],
    });
    expect((await call(CHANGE, admin.token, { current: PASSWORD, next: 'a new long password' })).data).toEqual({ adminChangePassword: { done: true, userErrors: [] } });
    expect((await call(SESSION, admin.token)).data).toEqual({ adminSession: null });
    expect((await call(SESSION, other.token)).data).toEqual({ adminSession: null });
    api.clock.fix('2026-11-24T13:01:00.000Z');
    const code = codeAt(factor.secret, new Date('2026-11-24T13:01:00.000Z'));
    const stale = await call<{ adminVerifySecondFactor: SignIn }>(VERIFY, null, { challenge: pending.secondFactorChallenge, code });
    expect(stale.data!.adminVerifySecondFactor.userErrors[0]?.code).toBe('SECOND_FACTOR_EXPIRED');
    expect((await login(admin.email)).userErrors[0]?.code).toBe('INVALID_CREDENTIALS');
    expect((await login(admin.email, 'a new long password')).secondFactorChallenge).toBeTruthy();
  });

  describe('audit log', () => {
    it('records sign-ins, failed sign-ins and links with who, when and from where, newest first, a page at a time', async () => {
      const at = api.clock.fix('2026-11-24T14:00:00.000Z');
      const owner = await signedIn('owner');
      const stranger = `nobody-${randomUUID()}@example.test`;
      await login(stranger, 'guessing a password');
      await login(owner.email, 'guessing a password');
      const { code } = await insertCode(database.db);
      await call(GENERATE, owner.token, { code });

      const failed = await auditOf(owner.token, { action: 'admin.sign-in-failed', actor: stranger });
      expect(failed.entries).toEqual([
        { at: at.toISOString(), actorEmail: stranger, clientAddress: expect.any(String), action: 'admin.sign-in-failed', target: null, details: '{"reason":"credentials"}' },
      ]);
      const mine = await auditOf(owner.token, { actor: owner.email, first: 2 });
      expect(mine.entries.map((e) => e.action)).toEqual(['link.generated', 'admin.sign-in-failed']);
      const rest = await auditOf(owner.token, { actor: owner.email, first: 2, after: mine.nextCursor });
      expect(rest.entries.map((e) => e.action)).toEqual(['admin.signed-in']);
      expect(rest.nextCursor).toBeNull();
      expect((await auditOf(owner.token, { target: code })).entries.map((e) => e.action)).toEqual(['link.generated']);
    });

    it('cannot be changed or deleted, not even by the database owner', async () => {
      const owner = await signedIn('owner');
      expect((await auditOf(owner.token, { actor: owner.email })).entries).toHaveLength(1);
      await expect(database.db.updateTable('audit_log').set({ action: 'nothing-happened' }).execute()).rejects.toThrow(/append-only/);
      await expect(database.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
      if (engine === 'postgres') await expect(sql`truncate audit_log`.execute(database.db)).rejects.toThrow(/append-only/);
      expect((await auditOf(owner.token, { actor: owner.email })).entries.map((e) => e.action)).toEqual(['admin.signed-in']);
    });
  });
});
