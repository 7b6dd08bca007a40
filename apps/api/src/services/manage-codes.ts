/**
 * The console's invitations (issue 13, ADR 046): create one or many codes (the CLI's
 * `code create`), change a code's balance and expiry, revoke it, rotate it (the CLI's
 * `code rotate`, and the old code is then refused as replaced). Each change writes its audit
 * record, with what it was before and after, in the same transaction as the change.
 */
import { codeChangeForm, newCodesForm } from '@velvet/validation/codes';
import { normalizeRegistrationCode, isRegistrationCodeFormat } from '@velvet/validation/registration-code';
import { fieldError } from '@velvet/validation/user-errors';
import type { UserError } from '@velvet/validation/user-errors';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import type { Database } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { createRegistrationCodes } from './create-registration-code.ts';
import type { CreatedRegistrationCode } from './create-registration-code.ts';
import { releaseCode } from './release-code.ts';
import type { ReleaseReport } from './release-code.ts';
import { rotateCode } from './rotate-code.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';

const UNKNOWN: UserError = { code: 'REGISTRATION_CODE_INVALID', field: 'code', messageId: 'admin.codes.error.unknown' };
const REVOKED: UserError = { code: 'REGISTRATION_CODE_REVOKED', field: 'code', messageId: 'admin.codes.error.revoked' };
const NOT_QUARANTINED: UserError = { code: 'INVALID_FIELD', field: 'code', messageId: 'admin.codes.error.notQuarantined' };

/** GraphQL's absent arguments arrive as null; the forms' schemas know only absent (undefined). */
const present = (input: object) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));

function fieldErrorsOf(error: z.ZodError): UserError[] {
  return error.issues.map((issue) => fieldError(String(issue.path[0] ?? 'code'), issue.message));
}

/** The code's row under its lock, or why there is none to change. */
async function lockedCode(trx: Transaction<Database>, rawCode: string) {
  const code = normalizeRegistrationCode(rawCode);
  if (!isRegistrationCodeFormat(code)) return null;
  const found = await trx.selectFrom('registration_codes').select('id').where('code', '=', code).executeTakeFirst();
  if (!found) return null;
  await lockRow(trx, 'registration_codes', found.id);
  return trx
    .selectFrom('registration_codes')
    .select(['id', 'code', 'balance', 'expires_at', 'revoked_at', 'disabled', 'quarantined_at'])
    .where('id', '=', found.id)
    .executeTakeFirstOrThrow();
}

export interface CodeInput {
  inviterName?: unknown;
  count?: unknown;
  balance?: unknown;
  expiresAt?: unknown;
  customization?: unknown;
  landingSlug?: unknown;
  requiresValidityTimestamp?: unknown;
}

/** New codes for one new inviter, through the CLI's service; the console's rules first (a future expiry). */
export async function createCodes(db: Db, actor: AuditActor, input: CodeInput, now: Date): Promise<Result<CreatedRegistrationCode[]>> {
  const parsed = newCodesForm(() => now).safeParse(present(input));
  if (!parsed.success) return fail(...fieldErrorsOf(parsed.error));
  const value = parsed.data;
  const exists: UserError = { code: 'INVALID_FIELD', field: 'code', messageId: 'admin.codes.error.exists' };
  if (value.code !== undefined && (await db.selectFrom('registration_codes').select('id').where('code', '=', value.code).executeTakeFirst())) {
    return fail(exists);
  }
  const created = await createRegistrationCodes(
    db,
    {
      inviterFirstName: value.inviterName,
      balance: value.balance,
      expiresAt: value.expiresAt,
      customization: value.customization,
      landingSlug: value.landingSlug,
      requiresValidityTimestamp: value.requiresValidityTimestamp,
      code: value.code,
    },
    value.count,
    now,
    async (trx, codes) => {
      for (const code of codes) {
        await recordAudit(
          trx,
          actor,
          {
            action: 'code.created',
            target: code.code,
            details: {
              before: null,
              after: {
                inviter: value.inviterName,
                balance: code.balance,
                expiresAt: code.expiresAt,
                customization: code.customization,
                landingSlug: code.landingSlug,
                requiresValidityTimestamp: code.requiresValidityTimestamp,
              },
            },
          },
          now,
        );
      }
    },
  );
  // The console's form checked everything the service checks: a refusal here is a chosen code taken
  // meanwhile, or (unheard of) no free random code in five draws.
  if (!created.ok) {
    if (value.code !== undefined) return fail(exists);
    throw new Error(created.errors.join('; '));
  }
  return ok(created.value);
}

/** A new balance, a new expiry, or no expiry; a revoked code stays as it is. */
export async function changeCode(
  db: Db,
  actor: AuditActor,
  rawCode: string,
  input: { balance?: unknown; expiresAt?: unknown; clearExpiry?: unknown },
  now: Date,
): Promise<Result<{ code: string }>> {
  const parsed = codeChangeForm(() => now).safeParse(present(input));
  if (!parsed.success) return fail(...fieldErrorsOf(parsed.error));
  const change = parsed.data;
  return db.transaction().execute(async (trx): Promise<Result<{ code: string }>> => {
    const row = await lockedCode(trx, rawCode);
    if (!row) return fail(UNKNOWN);
    if (row.revoked_at !== null || row.disabled) return fail(REVOKED);
    const before = { balance: row.balance, expiresAt: row.expires_at };
    const after = {
      balance: change.balance ?? row.balance,
      expiresAt: change.expiresAt ? change.expiresAt.toISOString() : change.clearExpiry ? null : row.expires_at,
    };
    await trx.updateTable('registration_codes').set({ balance: after.balance, expires_at: after.expiresAt }).where('id', '=', row.id).execute();
    await recordAudit(trx, actor, { action: 'code.changed', target: row.code, details: { before, after } }, now);
    return ok({ code: row.code });
  });
}

/** From now on refused to visitors ("this invitation has been withdrawn"); its members stay. */
export async function revokeCode(db: Db, actor: AuditActor, rawCode: string, now: Date): Promise<Result<{ code: string }>> {
  return db.transaction().execute(async (trx): Promise<Result<{ code: string }>> => {
    const row = await lockedCode(trx, rawCode);
    if (!row) return fail(UNKNOWN);
    if (row.revoked_at !== null || row.disabled) return fail(REVOKED);
    await trx.updateTable('registration_codes').set({ revoked_at: now.toISOString(), revoked_reason: 'revoked' }).where('id', '=', row.id).execute();
    await recordAudit(trx, actor, { action: 'code.revoked', target: row.code, details: { before: { revokedAt: null }, after: { revokedAt: now.toISOString() } } }, now);
    return ok({ code: row.code });
  });
}

/**
 * The CLI's rotation (a new code with the old one's free places, the inviter emailed its private
 * link), and the old code then refused to visitors as replaced.
 */
export async function rotateCodeFromConsole(
  db: Db,
  actor: AuditActor,
  rawCode: string,
  now: Date,
): Promise<Result<{ code: string; newCode: string; balance: number }>> {
  const code = normalizeRegistrationCode(rawCode);
  if (!isRegistrationCodeFormat(code)) return fail(UNKNOWN);
  const row = await db.selectFrom('registration_codes').select(['revoked_at', 'disabled']).where('code', '=', code).executeTakeFirst();
  if (!row) return fail(UNKNOWN);
  if (row.revoked_at !== null || row.disabled) return fail(REVOKED);
  const rotated = await rotateCode(db, code, now, async (trx, result) => {
    // Revoked meanwhile (checked again under the rotation's lock): nothing is written.
    const old = await trx.selectFrom('registration_codes').select('revoked_at').where('id', '=', result.oldId).executeTakeFirstOrThrow();
    if (old.revoked_at !== null) throw new AlreadyRevoked();
    await trx.updateTable('registration_codes').set({ revoked_at: now.toISOString(), revoked_reason: 'rotated' }).where('id', '=', result.oldId).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'code.rotated',
        target: result.oldCode,
        details: { before: { code: result.oldCode, revokedAt: null }, after: { code: result.newCode, balance: result.balance, oldRevokedAt: now.toISOString() } },
      },
      now,
    );
  }).catch((error: unknown) => {
    if (error instanceof AlreadyRevoked) return null;
    throw error;
  });
  if (rotated === null) return fail(REVOKED);
  if (!rotated.ok) return fail(UNKNOWN);
  return ok({ code: rotated.value.oldCode, newCode: rotated.value.newCode, balance: rotated.value.balance });
}

class AlreadyRevoked extends Error {}

/**
 * The CLI's `code release` from the console: the quarantine ends (audited in the same
 * transaction, with how many registrations were held), then the held registrations register
 * while the code has places, each as it would have (ADR 043).
 */
export async function releaseCodeFromConsole(
  deps: Parameters<typeof releaseCode>[0],
  actor: AuditActor,
  rawCode: string,
  now: Date,
): Promise<Result<ReleaseReport>> {
  const code = normalizeRegistrationCode(rawCode);
  if (!isRegistrationCodeFormat(code)) return fail(UNKNOWN);
  const row = await deps.db.selectFrom('registration_codes').select('quarantined_at').where('code', '=', code).executeTakeFirst();
  if (!row) return fail(UNKNOWN);
  const released = await releaseCode(deps, code, now, (trx, { quarantinedAt, held }) =>
    recordAudit(trx, actor, { action: 'code.released', target: code, details: { before: { quarantinedAt, heldRegistrations: held }, after: { quarantinedAt: null } } }, now),
  );
  return released.ok ? ok(released.value) : fail(NOT_QUARANTINED);
}
