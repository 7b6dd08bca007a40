/**
 * The lobby link's two forms (ADR 060). An emailed link carries a short random reference (128
 * bits, 22 base64url characters) whose SHA-256 `lobby_links` keeps with the address and the
 * link's expiry; an operator's link (`token lobby`) and every email sent before 0019 carry the
 * signed lobby token (ADR 009). Both go in the lobby's `?token=`, and both mean the same: the
 * address may join the waiting list until the link expires, as often as it is opened (joining
 * twice changes nothing). A JWT always has dots, a reference never: the shape says which it is.
 */
import { verifyLobbyToken } from '@velvet/tokens/signed-token';
import type { TokenFailure } from '@velvet/tokens/signed-token';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { REFERENCE_PATTERN, hashToken, randomReference } from '../lib/tokens.ts';

export type LobbyAddress = { ok: true; email: string } | { ok: false; reason: TokenFailure };

/** Stores a new lobby link for `email` valid until `expiresAt`; returns its reference (in clear, for the email only). */
export async function createLobbyLink(db: Kysely<Database>, email: string, expiresAt: Date, now: Date): Promise<string> {
  const reference = randomReference();
  await db
    .insertInto('lobby_links')
    .values({ reference_hash: hashToken(reference), email, created_at: now.toISOString(), expires_at: expiresAt.toISOString() })
    .execute();
  return reference;
}

/**
 * The address a lobby link's `?token=` lets join: a stored reference (unknown → `invalid`, past
 * its expiry → `expired`) or a signed lobby token.
 */
export async function lobbyAddress(deps: { db: Kysely<Database>; secret: string }, token: string, now: Date): Promise<LobbyAddress> {
  const value = token.trim();
  if (!REFERENCE_PATTERN.test(value)) {
    const verified = await verifyLobbyToken(value, deps.secret, now);
    return verified.ok ? { ok: true, email: verified.claims.email } : verified;
  }
  const link = await deps.db.selectFrom('lobby_links').select(['email', 'expires_at']).where('reference_hash', '=', hashToken(value)).executeTakeFirst();
  if (!link) return { ok: false, reason: 'invalid' };
  if (new Date(link.expires_at).getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, email: link.email };
}
