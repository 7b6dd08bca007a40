/**
 * Admin sign-in for the admin pages (docs/decisions/007, 045): a scrypt check, then — for an
 * admin with a second factor — a short signed challenge that a TOTP or recovery code redeems,
 * then a session row and a short JWT (HS256, `sub` = session id) that is only honoured while its
 * row is live and its admin is not disabled, so signing out, a password change or disabling the
 * admin ends it at once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { AdminRole } from '@velvet/validation/admin';
import { hasControlCharacters } from '@velvet/validation/text';
import type { Db } from '../db/connect.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { deriveKey } from '../lib/tokens.ts';
import { acceptedStep, spendRecoveryCode } from './second-factor.ts';

export const ADMIN_SESSION_HOURS = 8;
/** The time between a correct password and its second factor. */
const SECOND_FACTOR_CHALLENGE_MINUTES = 5;
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
  | { kind: 'refused'; adminUserId: string | null; reason: 'credentials' | 'challenge' | 'second-factor' };

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
    const challenge = await new SignJWT({ pwd: user.password_changed_at ?? user.created_at })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(ISSUER)
      .setAudience(CHALLENGE_AUDIENCE)
      .setIssuedAt(seconds(now))
      .setExpirationTime(seconds(now) + SECOND_FACTOR_CHALLENGE_MINUTES * 60)
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

/** The second step: a TOTP code (good once) or an unused recovery code redeems the challenge. */
export async function verifySecondFactor(deps: Deps, input: { challenge: string; code: string }): Promise<SignInResult> {
  const now = deps.now ?? new Date();
  const payload = await verifiedPayload(input.challenge, challengeKey(deps.secret), CHALLENGE_AUDIENCE, now);
  const adminUserId = payload?.sub;
  const passwordStamp = payload?.pwd;
  if (!adminUserId) return { kind: 'refused', adminUserId: null, reason: 'challenge' };
  const id = adminUserId;
  const code = input.code.trim().slice(0, 64);
  return deps.db.transaction().execute(async (trx): Promise<SignInResult> => {
    const user = await trx
      .selectFrom('admin_users')
      .select(['id', 'totp_secret', 'totp_enabled_at', 'totp_last_step', 'disabled_at', 'password_changed_at', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    // A password changed since the challenge was issued, or a disabled admin: sign in again.
    if (!user || user.disabled_at || !user.totp_enabled_at || !user.totp_secret || (user.password_changed_at ?? user.created_at) !== passwordStamp) {
      return { kind: 'refused', adminUserId: null, reason: 'challenge' };
    }
    if (/^\d{6}$/.test(code)) {
      const step = acceptedStep(user.totp_secret, deps.secret, code, user.totp_last_step, now);
      if (step === null) return { kind: 'refused', adminUserId: id, reason: 'second-factor' };
      await trx.updateTable('admin_users').set({ totp_last_step: step }).where('id', '=', id).execute();
    } else if (!(await spendRecoveryCode(trx, id, code, now))) {
      return { kind: 'refused', adminUserId: id, reason: 'second-factor' };
    }
    return startSession({ ...deps, db: trx }, id, now);
  });
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
