/**
 * The people who run the club's door (issue 13, ADR 045): the owner creates admins with a role,
 * changes roles, disables admins and requires a second factor for everyone; every admin sets up
 * their own second factor and changes their own password. Each change writes its audit record in
 * the same transaction; a password change or disabling ends the admin's sessions at once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ADMIN_PASSWORD_MAX_LENGTH, ADMIN_PASSWORD_MIN_LENGTH, ADMIN_ROLES } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import { fieldError } from '@velvet/validation/user-errors';
import type { UserError } from '@velvet/validation/user-errors';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { revokeAllSessions } from '../auth/admin-sessions.ts';
import { acceptedStep, issueRecoveryCodes, newTotpSecret, provisioningUri, sealTotpSecret } from '../auth/second-factor.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';

export interface AdminDeps {
  db: Db;
  secret: string;
  now?: Date;
}

const adminError = (code: UserError['code'], messageId: string, field: string | null = null): UserError => ({ code, field, messageId });

const password = z
  .string()
  .min(ADMIN_PASSWORD_MIN_LENGTH, 'admin.password.tooShort')
  .max(ADMIN_PASSWORD_MAX_LENGTH, 'admin.password.tooLong');
const email = z.string().trim().toLowerCase().max(254, 'validation.emailTooLong').pipe(z.email('validation.email'));
const role = z.enum(ADMIN_ROLES, 'validation.role');

function fieldErrors(error: z.ZodError): UserError[] {
  return error.issues.map((issue) => fieldError(String(issue.path[0] ?? 'input'), issue.message));
}

export interface AdminSummary {
  id: string;
  email: string;
  role: AdminRole;
  secondFactorEnabled: boolean;
  disabled: boolean;
  createdAt: string;
}

export async function listAdmins(db: Db): Promise<AdminSummary[]> {
  const rows = await db
    .selectFrom('admin_users')
    .select(['id', 'email', 'role', 'totp_enabled_at', 'disabled_at', 'created_at'])
    .orderBy('email')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    secondFactorEnabled: row.totp_enabled_at !== null,
    disabled: row.disabled_at !== null,
    createdAt: row.created_at,
  }));
}

/** A new admin with a generated password, shown once (the admin changes it after signing in). */
export async function createAdmin(
  deps: AdminDeps,
  actor: AuditActor,
  input: { email: string; role: string },
): Promise<Result<{ id: string; email: string; role: AdminRole; password: string }>> {
  const parsed = z.object({ email, role }).safeParse(input);
  if (!parsed.success) return fail(...fieldErrors(parsed.error));
  const now = deps.now ?? new Date();
  const generated = randomBytes(18).toString('base64url');
  const id = randomUUID();
  const passwordHash = await hashPassword(generated);
  try {
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('admin_users')
        .values({ id, email: parsed.data.email, password_hash: passwordHash, created_at: now.toISOString(), role: parsed.data.role })
        .execute();
      await recordAudit(trx, actor, { action: 'admin.created', target: parsed.data.email, details: { after: { role: parsed.data.role } } }, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return fail(adminError('ADMIN_EXISTS', 'admin.admins.exists', 'email'));
    throw error;
  }
  return ok({ id, email: parsed.data.email, role: parsed.data.role, password: generated });
}

/** Active owners other than `exceptId`: the last one may not be demoted or disabled. */
async function otherActiveOwners(trx: Kysely<Database>, exceptId: string): Promise<number> {
  const row = await trx
    .selectFrom('admin_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setAdminRole(deps: AdminDeps, actor: AuditActor, input: { adminId: string; role: string }): Promise<Result<AdminRole>> {
  const parsed = role.safeParse(input.role);
  if (!parsed.success) return fail(fieldError('role', 'validation.role'));
  const now = deps.now ?? new Date();
  return deps.db.transaction().execute(async (trx): Promise<Result<AdminRole>> => {
    const admin = await trx.selectFrom('admin_users').select(['id', 'email', 'role']).where('id', '=', input.adminId.slice(0, 64)).executeTakeFirst();
    if (!admin) return fail(adminError('ADMIN_NOT_FOUND', 'admin.admins.unknown'));
    if (admin.role === parsed.data) return ok(parsed.data);
    if (admin.role === 'owner' && (await otherActiveOwners(trx, admin.id)) === 0) return fail(adminError('LAST_OWNER', 'admin.admins.lastOwner'));
    await trx.updateTable('admin_users').set({ role: parsed.data }).where('id', '=', admin.id).execute();
    await recordAudit(trx, actor, { action: 'admin.role-changed', target: admin.email, details: { before: { role: admin.role }, after: { role: parsed.data } } }, now);
    return ok(parsed.data);
  });
}

/** Disables an admin: every session ends now, sign-in is refused from then on. */
export async function disableAdmin(deps: AdminDeps, actor: AuditActor, adminId: string): Promise<Result<true>> {
  const now = deps.now ?? new Date();
  return deps.db.transaction().execute(async (trx): Promise<Result<true>> => {
    const admin = await trx.selectFrom('admin_users').select(['id', 'email', 'role', 'disabled_at']).where('id', '=', adminId.slice(0, 64)).executeTakeFirst();
    if (!admin) return fail(adminError('ADMIN_NOT_FOUND', 'admin.admins.unknown'));
    if (admin.disabled_at) return ok(true);
    if (admin.role === 'owner' && (await otherActiveOwners(trx, admin.id)) === 0) return fail(adminError('LAST_OWNER', 'admin.admins.lastOwner'));
    await trx.updateTable('admin_users').set({ disabled_at: now.toISOString() }).where('id', '=', admin.id).execute();
    const sessions = await revokeAllSessions(trx, admin.id, now);
    await recordAudit(trx, actor, { action: 'admin.disabled', target: admin.email, details: { sessionsEnded: sessions } }, now);
    return ok(true);
  });
}

export async function setSecurityPolicy(deps: AdminDeps, actor: AuditActor, requireSecondFactor: boolean): Promise<Result<boolean>> {
  const now = deps.now ?? new Date();
  await deps.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('admin_security_policy').select('require_second_factor').where('id', '=', 1).executeTakeFirstOrThrow();
    await trx.updateTable('admin_security_policy').set({ require_second_factor: requireSecondFactor, updated_at: now.toISOString() }).where('id', '=', 1).execute();
    await recordAudit(
      trx,
      actor,
      { action: 'admin.security-policy-changed', details: { before: { requireSecondFactor: before.require_second_factor }, after: { requireSecondFactor } } },
      now,
    );
  });
  return ok(requireSecondFactor);
}

export async function readSecurityPolicy(db: Db): Promise<{ requireSecondFactor: boolean }> {
  const row = await db.selectFrom('admin_security_policy').select('require_second_factor').where('id', '=', 1).executeTakeFirstOrThrow();
  return { requireSecondFactor: row.require_second_factor };
}

/** Changes the admin's own password; every session of theirs ends (this one too): sign in again. */
export async function changeAdminPassword(
  deps: AdminDeps,
  actor: AuditActor & { adminId: string },
  input: { currentPassword: string; newPassword: string },
): Promise<Result<true>> {
  const parsed = password.safeParse(input.newPassword);
  if (!parsed.success) return fail(...parsed.error.issues.map((issue) => fieldError('newPassword', issue.message)));
  const now = deps.now ?? new Date();
  const admin = await deps.db.selectFrom('admin_users').select(['id', 'email', 'password_hash']).where('id', '=', actor.adminId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(input.currentPassword.slice(0, ADMIN_PASSWORD_MAX_LENGTH), admin.password_hash))) {
    return fail(adminError('WRONG_PASSWORD', 'admin.password.currentWrong', 'currentPassword'));
  }
  const passwordHash = await hashPassword(parsed.data);
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('admin_users').set({ password_hash: passwordHash, password_changed_at: now.toISOString() }).where('id', '=', admin.id).execute();
    const sessions = await revokeAllSessions(trx, admin.id, now);
    await recordAudit(trx, actor, { action: 'admin.password-changed', target: admin.email, details: { sessionsEnded: sessions } }, now);
  });
  return ok(true);
}

/**
 * Starts (or restarts) the second-factor set-up: a new secret for the authenticator app, and a
 * `setupToken` (the secret sealed by a key of APP_SECRET) that the confirmation brings back. Nothing
 * is stored yet, so a factor in force stays in force until a new one is confirmed.
 */
export async function startSecondFactorSetup(deps: AdminDeps, adminId: string): Promise<{ secret: string; uri: string; setupToken: string }> {
  const admin = await deps.db.selectFrom('admin_users').select(['email']).where('id', '=', adminId).executeTakeFirstOrThrow();
  const secret = newTotpSecret();
  return { secret, uri: provisioningUri(secret, admin.email), setupToken: sealTotpSecret(secret, deps.secret) };
}

/** A first code from the app confirms the set-up: the factor is in force, and ten recovery codes are shown once. */
export async function confirmSecondFactorSetup(
  deps: AdminDeps,
  actor: AuditActor & { adminId: string },
  input: { setupToken: string; code: string },
): Promise<Result<{ recoveryCodes: string[] }>> {
  const now = deps.now ?? new Date();
  const code = input.code.trim();
  let step: number | null;
  try {
    step = /^\d{6}$/.test(code) ? acceptedStep(input.setupToken, deps.secret, code, null, now) : null;
  } catch {
    // Not a setup token of ours (altered, another key): the set-up starts again.
    return fail(adminError('SECOND_FACTOR_NOT_STARTED', 'admin.secondFactor.notStarted'));
  }
  if (step === null) return fail(adminError('INVALID_SECOND_FACTOR', 'admin.secondFactor.invalid', 'code'));
  const confirmedStep = step;
  const recoveryCodes = await deps.db.transaction().execute(async (trx) => {
    const admin = await trx.selectFrom('admin_users').select(['id', 'email', 'totp_enabled_at']).where('id', '=', actor.adminId).executeTakeFirstOrThrow();
    await trx
      .updateTable('admin_users')
      .set({ totp_secret: input.setupToken, totp_enabled_at: now.toISOString(), totp_last_step: confirmedStep })
      .where('id', '=', admin.id)
      .execute();
    const codes = await issueRecoveryCodes(trx, admin.id, now);
    await recordAudit(trx, actor, { action: 'admin.second-factor-enabled', target: admin.email, details: { replaced: admin.totp_enabled_at !== null } }, now);
    return codes;
  });
  return ok({ recoveryCodes });
}
