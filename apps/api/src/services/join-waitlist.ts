/**
 * Mutation.joinWaitlist (spec §2 lobby, §4): the lobby link carries a signed lobby token
 * naming the address (@velvet/tokens, docs/decisions/009), so joining needs no form. The
 * address is the token's; a bad token is refused before anything is written. Joining twice
 * is harmless: one entry per address, the first one's language and time are kept.
 */
import { randomUUID } from 'node:crypto';
import { isLocale } from '@velvet/i18n/locales';
import type { Locale } from '@velvet/i18n/locales';
import { verifyLobbyToken } from '@velvet/tokens/signed-token';
import type { Db } from '../db/connect.ts';
import type { Logger } from '../logger.ts';
import type { TokenErrorCode } from '@velvet/validation/user-errors';
import { tokenErrorCode } from '../domain/token-errors.ts';

type JoinWaitlistOutcome = 'JOINED' | 'ALREADY_ON_LIST';

export interface JoinWaitlistResult {
  outcome: JoinWaitlistOutcome | null;
  /** The token's address, when the token is good. */
  email: string | null;
  tokenError: TokenErrorCode | null;
}

export interface JoinWaitlistDeps {
  db: Db;
  /** APP_SECRET: lobby tokens are signed with a key derived from it. */
  secret: string;
  logger?: Logger;
  now?: Date;
}

/** One of the seven languages, else English (the lobby may be opened without a prefix). */
export function languageOrDefault(language: string | null | undefined): Locale {
  const lang = language?.trim().toLowerCase();
  return isLocale(lang) ? lang : 'en';
}

export async function joinWaitlist(
  deps: JoinWaitlistDeps,
  input: { token: string; language?: string | null },
): Promise<JoinWaitlistResult> {
  const now = deps.now ?? new Date();
  const verified = await verifyLobbyToken(input.token, deps.secret, now);
  if (!verified.ok) {
    deps.logger?.info({ reason: verified.reason }, 'waitlist: lobby token refused');
    return { outcome: null, email: null, tokenError: tokenErrorCode(verified.reason) };
  }
  const { email } = verified.claims;
  const at = now.toISOString();
  // Joining is the consent the lobby's text asks for: consent_at is the same moment.
  const inserted = await deps.db
    .insertInto('waitlist_entries')
    .values({
      id: randomUUID(),
      email,
      language: languageOrDefault(input.language),
      joined_at: at,
      consent_at: at,
      invited_at: null,
      registration_code_id: null,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  const joined = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  deps.logger?.info({ joined }, joined ? 'waitlist: joined' : 'waitlist: already on the list');
  return { outcome: joined ? 'JOINED' : 'ALREADY_ON_LIST', email, tokenError: null };
}

export interface LobbyTokenDetails {
  email: string | null;
  /** The address is on the waiting list already (false when the token is refused). */
  onWaitlist: boolean;
  tokenError: TokenErrorCode | null;
}

/** Query.lobbyToken: the address a lobby token names and whether it is on the list, or why the token is refused. Writes nothing. */
export async function describeLobbyToken(deps: { secret: string; db: Db }, token: string, now: Date = new Date()): Promise<LobbyTokenDetails> {
  const verified = await verifyLobbyToken(token, deps.secret, now);
  if (!verified.ok) return { email: null, onWaitlist: false, tokenError: tokenErrorCode(verified.reason) };
  const { email } = verified.claims;
  const entry = await deps.db.selectFrom('waitlist_entries').select('id').where('email', '=', email).executeTakeFirst();
  return { email, onWaitlist: entry !== undefined, tokenError: null };
}
