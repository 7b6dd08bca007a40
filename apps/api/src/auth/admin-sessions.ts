/**
 * Admin sign-in for the admin pages (docs/decisions/007): a scrypt check, a session row,
 * and a short JWT (HS256, `sub` = session id) that is only honoured while its row is live,
 * so signing out (or deleting the admin) ends it at once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Db } from '../db/connect.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { deriveKey } from '../lib/tokens.ts';
import { hasControlCharacters } from '@velvet/validation/text';

export const ADMIN_SESSION_HOURS = 8;
const ISSUER = 'velvet-api';
const AUDIENCE = 'velvet-admin';

export interface AdminSessionInfo {
  sessionId: string;
  adminUserId: string;
  email: string;
  expiresAt: string;
}

const jwtKey = (secret: string) => new Uint8Array(deriveKey(secret, 'admin-session-jwt'));

/** A hash to check unknown emails against, so they cost the same scrypt work as known ones. */
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummyHash;
}

export async function loginAdmin(
  deps: { db: Db; secret: string; now?: Date },
  credentials: { email: string; password: string },
): Promise<{ ok: true; token: string; expiresAt: string } | { ok: false }> {
  const now = deps.now ?? new Date();
  const email = credentials.email.trim().toLowerCase();
  const password = credentials.password.slice(0, 1024);
  const user =
    // No admin address is longer, or has control characters (U+0000 would be a PostgreSQL error).
    email.length <= 254 && !hasControlCharacters(email)
      ? await deps.db.selectFrom('admin_users').select(['id', 'password_hash']).where('email', '=', email).executeTakeFirst()
      : undefined;
  const valid = await verifyPassword(password, user?.password_hash ?? (await unknownUserHash()));
  if (!user || !valid) return { ok: false };

  // Whole seconds: the JWT's exp and the row's expires_at are the same instant.
  const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + ADMIN_SESSION_HOURS * 3600 * 1000);
  const sessionId = randomUUID();
  await deps.db
    .insertInto('admin_sessions')
    .values({ id: sessionId, admin_user_id: user.id, created_at: now.toISOString(), expires_at: expiresAt.toISOString(), revoked_at: null })
    .execute();
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sessionId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(jwtKey(deps.secret));
  return { ok: true, token, expiresAt: expiresAt.toISOString() };
}

/** The live session a token names: valid signature, not expired, and its row neither revoked nor expired. */
export async function verifyAdminToken(
  deps: { db: Db; secret: string; now?: Date },
  token: string,
): Promise<AdminSessionInfo | null> {
  const now = deps.now ?? new Date();
  let sessionId: string | undefined;
  try {
    const { payload } = await jwtVerify(token, jwtKey(deps.secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp'],
    });
    sessionId = payload.sub;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
  if (!sessionId) return null;
  const row = await deps.db
    .selectFrom('admin_sessions as s')
    .innerJoin('admin_users as u', 'u.id', 's.admin_user_id')
    .select(['s.id', 's.admin_user_id', 's.expires_at', 'u.email'])
    .where('s.id', '=', sessionId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? { sessionId: row.id, adminUserId: row.admin_user_id, email: row.email, expiresAt: row.expires_at } : null;
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

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null | undefined): string | null {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,4096})\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
