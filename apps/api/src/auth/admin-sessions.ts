/**
 * Admin sign-in for the admin pages (docs/decisions/007, 045): a scrypt check, then — for an
 * admin with a second factor — a short signed challenge that a TOTP or recovery code redeems,
 * then a session row and a short JWT (HS256, `sub` = session id) that is only honoured while its
 * row is live and its admin is not disabled, so signing out, a password change or disabling the
 * admin ends it at once.
 *
 * Guessing the second factor (issue 18 §2, ADR 045 addendum): each challenge has a row that
 * counts its attempts (five, then it is dead) and is redeemed once; the admin's wrong codes are
 * counted too (ten in 15 minutes lock the second step until the window ends). Both counts and the
 * redemption are conditional UPDATEs in the transaction that creates the session, as is the TOTP
 * step a code used: one code, one challenge, one session, however many arrive at once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { AdminRole } from '@velvet/validation/admin';
import { hasControlCharacters } from '@velvet/validation/text';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { deriveKey } from '../lib/tokens.ts';
import { acceptedStep, spendRecoveryCode } from './second-factor.ts';

export const ADMIN_SESSION_HOURS = 8;
/** The time between a correct password and its second factor. */
const SECOND_FACTOR_CHALLENGE_MINUTES = 5;
/** Codes one challenge takes; after the last wrong one the password is asked again. */
const SECOND_FACTOR_ATTEMPTS_PER_CHALLENGE = 5;
/**
 * Wrong codes an admin may send in SECOND_FACTOR_LOCK_MINUTES; then the second step is locked until
 * that window ends (the catalogs' admin.secondFactor.locked says "wait 15 minutes").
 */
const SECOND_FACTOR_FAILURES_PER_ADMIN = 10;
const SECOND_FACTOR_LOCK_MINUTES = 15;
const ISSUER = 'velvet-api';
const AUDIENCE = 'velvet-admin';
const CHALLENGE_AUDIENCE = 'velvet-admin-second-factor';

export interface AdminSessionInfo {
  sessionId: string;
  adminUserId: string;
  email: string;
  expiresAt: string;
  role: AdminRole;
  secondFactorEnabled: boolean;
}

export type SignInResult =
  | { kind: 'session'; adminUserId: string; token: string; expiresAt: string }
  | { kind: 'second-factor'; adminUserId: string; challenge: string }
  /** adminUserId: the admin the password or code was wrong for (null: no such admin). */
  | { kind: 'refused'; adminUserId: string | null; reason: RefusalReason };

/**
 * credentials: unknown email or wrong password; challenge: no live challenge (expired, redeemed,
 * voided by a password change); second-factor: a wrong or used code; attempts-exhausted: the
 * challenge took its last wrong code (the password again); locked: the admin had too many wrong
 * codes lately (wait, then the password again).
 */
export type RefusalReason = 'credentials' | 'challenge' | 'second-factor' | 'attempts-exhausted' | 'locked';

interface Deps {
  db: Db;
  secret: string;
  now?: Date;
}

const jwtKey = (secret: string) => new Uint8Array(deriveKey(secret, 'admin-session-jwt'));
const challengeKey = (secret: string) => new Uint8Array(deriveKey(secret, 'admin-second-factor-challenge'));
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A hash to check unknown emails against, so they cost the same scrypt work as known ones. */
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummyHash;
}

/** The password step. A disabled admin is refused like a wrong password. */
export async function loginAdmin(deps: Deps, credentials: { email: string; password: string }): Promise<SignInResult> {
  const now = deps.now ?? new Date();
  const email = credentials.email.trim().toLowerCase();
  const password = credentials.password.slice(0, 1024);
  const user =
    // No admin address is longer, or has control characters (U+0000 would be a PostgreSQL error).
    email.length <= 254 && !hasControlCharacters(email)
      ? await deps.db
          .selectFrom('admin_users')
          .select(['id', 'password_hash', 'totp_enabled_at', 'disabled_at', 'password_changed_at', 'created_at'])
          .where('email', '=', email)
          .executeTakeFirst()
      : undefined;
  const valid = await verifyPassword(password, user?.password_hash ?? (await unknownUserHash()));
  if (!user || !valid || user.disabled_at) return { kind: 'refused', adminUserId: user?.id ?? null, reason: 'credentials' };
  if (user.totp_enabled_at) {
    const challengeId = randomUUID();
    const expiresAt = new Date((seconds(now) + SECOND_FACTOR_CHALLENGE_MINUTES * 60) * 1000);
    // The admin's challenges that ended go (they are few: the password step is rate limited).
    await deps.db
      .deleteFrom('admin_second_factor_challenges')
      .where('admin_user_id', '=', user.id)
      .where('expires_at', '<=', now.toISOString())
      .execute();
    await deps.db
      .insertInto('admin_second_factor_challenges')
      .values({ id: challengeId, admin_user_id: user.id, created_at: now.toISOString(), expires_at: expiresAt.toISOString(), redeemed_at: null })
      .execute();
    const challenge = await new SignJWT({ pwd: user.password_changed_at ?? user.created_at })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setJti(challengeId)
      .setIssuer(ISSUER)
      .setAudience(CHALLENGE_AUDIENCE)
      .setIssuedAt(seconds(now))
      .setExpirationTime(seconds(expiresAt))
      .sign(challengeKey(deps.secret));
    return { kind: 'second-factor', adminUserId: user.id, challenge };
  }
  return startSession(deps, user.id, now);
}

/** A token this API signed for `audience`, unexpired at `now`, with a subject: its claims, else null. */
async function verifiedPayload(token: string, key: Uint8Array, audience: string, now: Date): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience, currentDate: now, requiredClaims: ['sub', 'exp'] });
    return payload;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/**
 * The second step: a TOTP code (good once) or an unused recovery code redeems the challenge, once.
 * In one transaction, each a conditional UPDATE (on PostgreSQL the row stays locked until commit,
 * and a concurrent UPDATE re-reads it then; SQLite runs one transaction at a time): an attempt of
 * the challenge is taken (none left, or redeemed: refused before the code is looked at), a failure
 * of the admin is taken (none left: locked), the code is checked and its TOTP step written only
 * if newer than the last; on success the challenge is redeemed, the failure given back and the
 * session created.
 */
export async function verifySecondFactor(deps: Deps, input: { challenge: string; code: string }): Promise<SignInResult> {
  const now = deps.now ?? new Date();
  const payload = await verifiedPayload(input.challenge, challengeKey(deps.secret), CHALLENGE_AUDIENCE, now);
  const adminUserId = payload?.sub;
  const challengeId = payload?.jti;
  const passwordStamp = payload?.pwd;
  if (!adminUserId || !challengeId) return { kind: 'refused', adminUserId: null, reason: 'challenge' };
  const id = adminUserId;
  const code = input.code.trim().slice(0, 64);
  return deps.db.transaction().execute(async (trx): Promise<SignInResult> => {
    const attempt = await takeChallengeAttempt(trx, challengeId, id, now);
    if (attempt === 'dead') return { kind: 'refused', adminUserId: null, reason: 'challenge' };
    if (attempt === 'exhausted') return { kind: 'refused', adminUserId: id, reason: 'attempts-exhausted' };
    const user = await trx
      .selectFrom('admin_users')
      .select(['id', 'totp_secret', 'totp_enabled_at', 'totp_last_step', 'disabled_at', 'password_changed_at', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    // A password changed since the challenge was issued, or a disabled admin: sign in again.
    if (!user || user.disabled_at || !user.totp_enabled_at || !user.totp_secret || (user.password_changed_at ?? user.created_at) !== passwordStamp) {
      return { kind: 'refused', adminUserId: null, reason: 'challenge' };
    }
    const failures = await takeFailure(trx, id, now);
    if (failures === null) return { kind: 'refused', adminUserId: id, reason: 'locked' };
    if (!(await redeemsWith(trx, deps.secret, { id, totpSecret: user.totp_secret, lastStep: user.totp_last_step }, code, now))) {
      if (failures >= SECOND_FACTOR_FAILURES_PER_ADMIN) return { kind: 'refused', adminUserId: id, reason: 'locked' };
      return { kind: 'refused', adminUserId: id, reason: attempt.attempts >= SECOND_FACTOR_ATTEMPTS_PER_CHALLENGE ? 'attempts-exhausted' : 'second-factor' };
    }
    const redeemed = await trx
      .updateTable('admin_second_factor_challenges')
      .set({ redeemed_at: now.toISOString() })
      .where('id', '=', challengeId)
      .where('redeemed_at', 'is', null)
      .executeTakeFirst();
    if (Number(redeemed.numUpdatedRows) !== 1) return { kind: 'refused', adminUserId: null, reason: 'challenge' };
    // A right code is no failure: the one taken above is given back.
    await trx.updateTable('admin_users').set({ second_factor_failures: sql<number>`second_factor_failures - 1` }).where('id', '=', id).execute();
    return startSession({ ...deps, db: trx }, id, now);
  });
}

/**
 * Takes one attempt of a live, unredeemed challenge of this admin: the attempts taken so far, this
 * one included; 'exhausted' when they were used up; 'dead' when it is unknown, expired or redeemed.
 */
async function takeChallengeAttempt(
  trx: Kysely<Database>,
  challengeId: string,
  adminUserId: string,
  now: Date,
): Promise<{ attempts: number } | 'exhausted' | 'dead'> {
  const taken = await trx
    .updateTable('admin_second_factor_challenges')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', challengeId)
    .where('admin_user_id', '=', adminUserId)
    .where('redeemed_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .where('attempts', '<', SECOND_FACTOR_ATTEMPTS_PER_CHALLENGE)
    .returning('attempts')
    .executeTakeFirst();
  if (taken) return taken;
  const row = await trx
    .selectFrom('admin_second_factor_challenges')
    .select(['attempts', 'redeemed_at', 'expires_at'])
    .where('id', '=', challengeId)
    .where('admin_user_id', '=', adminUserId)
    .executeTakeFirst();
  return row && !row.redeemed_at && row.expires_at > now.toISOString() && row.attempts >= SECOND_FACTOR_ATTEMPTS_PER_CHALLENGE ? 'exhausted' : 'dead';
}

/**
 * Counts one failure of the admin in the window that began at their first failure (a window
 * over SECOND_FACTOR_LOCK_MINUTES ago starts afresh): the count now, or null when the window holds
 * SECOND_FACTOR_FAILURES_PER_ADMIN already (locked). Taken before the code is checked, so
 * attempts at once are counted at once; a right code gives it back.
 */
async function takeFailure(trx: Kysely<Database>, adminUserId: string, now: Date): Promise<number | null> {
  const windowStart = new Date(now.getTime() - SECOND_FACTOR_LOCK_MINUTES * 60_000).toISOString();
  const fresh = sql<boolean>`(second_factor_failures_since is null or second_factor_failures_since <= ${windowStart})`;
  const taken = await trx
    .updateTable('admin_users')
    .set({
      second_factor_failures: sql<number>`case when ${fresh} then 1 else second_factor_failures + 1 end`,
      second_factor_failures_since: sql<string>`case when ${fresh} then ${now.toISOString()} else second_factor_failures_since end`,
    })
    .where('id', '=', adminUserId)
    .where((eb) => eb.or([fresh, eb('second_factor_failures', '<', SECOND_FACTOR_FAILURES_PER_ADMIN)]))
    .returning('second_factor_failures')
    .executeTakeFirst();
  return taken?.second_factor_failures ?? null;
}

/** Whether `code` is a TOTP code of a step after the last one used (now written) or an unused recovery code (now spent). */
async function redeemsWith(
  trx: Kysely<Database>,
  secret: string,
  user: { id: string; totpSecret: string; lastStep: number | null },
  code: string,
  now: Date,
): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return spendRecoveryCode(trx, user.id, code, now);
  const step = acceptedStep(user.totpSecret, secret, code, user.lastStep, now);
  if (step === null) return false;
  // Only a newer step: of two transactions with the same code, the second writes nothing.
  const written = await trx
    .updateTable('admin_users')
    .set({ totp_last_step: step })
    .where('id', '=', user.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(written.numUpdatedRows) === 1;
}

async function startSession(deps: Deps, adminUserId: string, now: Date): Promise<SignInResult> {
  // Whole seconds: the JWT's exp and the row's expires_at are the same instant.
  const expiresAt = new Date(seconds(now) * 1000 + ADMIN_SESSION_HOURS * 3600 * 1000);
  const sessionId = randomUUID();
  await deps.db
    .insertInto('admin_sessions')
    .values({ id: sessionId, admin_user_id: adminUserId, created_at: now.toISOString(), expires_at: expiresAt.toISOString(), revoked_at: null })
    .execute();
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sessionId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(seconds(now))
    .setExpirationTime(seconds(expiresAt))
    .sign(jwtKey(deps.secret));
  return { kind: 'session', adminUserId, token, expiresAt: expiresAt.toISOString() };
}

/** The live session a token names: valid signature, not expired, its row live, its admin not disabled. */
export async function verifyAdminToken(deps: Deps, token: string): Promise<AdminSessionInfo | null> {
  const now = deps.now ?? new Date();
  const sessionId = (await verifiedPayload(token, jwtKey(deps.secret), AUDIENCE, now))?.sub;
  if (!sessionId) return null;
  const row = await deps.db
    .selectFrom('admin_sessions as s')
    .innerJoin('admin_users as u', 'u.id', 's.admin_user_id')
    .select(['s.id', 's.admin_user_id', 's.expires_at', 'u.email', 'u.role', 'u.totp_enabled_at'])
    .where('s.id', '=', sessionId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now.toISOString())
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
  return row
    ? {
        sessionId: row.id,
        adminUserId: row.admin_user_id,
        email: row.email,
        expiresAt: row.expires_at,
        role: row.role,
        secondFactorEnabled: row.totp_enabled_at !== null,
      }
    : null;
}

/** Ends a session; false when it was not live. */
export async function revokeAdminSession(db: Db, sessionId: string, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('admin_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every live session of an admin (password change, disabling); returns how many. */
export async function revokeAllSessions(db: Db, adminUserId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('admin_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('admin_user_id', '=', adminUserId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null | undefined): string | null {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,4096})\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
