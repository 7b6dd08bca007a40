/**
 * The "manage my data" link (issue 24 §2, ADR 066): a random reference (128 bits, 22 base64url
 * characters) whose SHA-256 `data_links` keeps with the address it opens and its expiry, as the
 * lobby link's (ADR 060). The outbox makes one for the footer of each email of the door to a
 * person without an account; the public form sends one on request.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { REFERENCE_PATTERN, hashToken, randomReference } from '../lib/tokens.ts';

const DAY_MS = 86_400_000;
/** How long a "manage my data" link works. */
const DATA_LINK_DAYS = 7;

/** Stores a new data link for `email`; returns its reference (in clear, for the email only). */
export async function createDataLink(db: Kysely<Database>, email: string, now: Date): Promise<{ reference: string; expiresAt: Date }> {
  const reference = randomReference();
  const expiresAt = new Date(now.getTime() + DATA_LINK_DAYS * DAY_MS);
  await db
    .insertInto('data_links')
    .values({ reference_hash: hashToken(reference), email: email.trim().toLowerCase(), created_at: now.toISOString(), expires_at: expiresAt.toISOString() })
    .execute();
  return { reference, expiresAt };
}

export type DataLinkAddress = { ok: true; email: string } | { ok: false; reason: 'invalid' | 'expired' };

/** The address a data link opens: unknown → invalid, past its expiry → expired. */
export async function dataLinkAddress(db: Kysely<Database>, reference: string, now: Date): Promise<DataLinkAddress> {
  const value = reference.trim();
  if (!REFERENCE_PATTERN.test(value)) return { ok: false, reason: 'invalid' };
  const link = await db.selectFrom('data_links').select(['email', 'expires_at']).where('reference_hash', '=', hashToken(value)).executeTakeFirst();
  if (!link) return { ok: false, reason: 'invalid' };
  if (new Date(link.expires_at).getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, email: link.email };
}

