/**
 * Mutation.joinWaitlist (spec §2 lobby, §4): the lobby link names the address — by a stored
 * reference (an emailed link, ADR 060) or a signed lobby token (an operator's link, ADR 009) —
 * so joining needs no form. The address is the link's; a bad, unknown or expired link is refused
 * before anything is written. Joining twice
 * is harmless: one entry per address, the first one's language and time are kept. Joining
 * queues the "you are on the waiting list" email with its leave link (ADR 058).
 */
import { randomUUID } from 'node:crypto';
import { isLocale } from '@velvet/i18n/locales';
import type { Locale } from '@velvet/i18n/locales';
import type { Db } from '../db/connect.ts';
import type { Logger } from '../logger.ts';
import type { TokenErrorCode } from '@velvet/validation/user-errors';
import { lobbyAddress } from '../domain/lobby-links.ts';
import { tokenErrorCode } from '../domain/token-errors.ts';
import { REFERENCE_PATTERN, hashToken, randomReference } from '../lib/tokens.ts';
import { enqueueEmail, sealForOutbox } from '../mail/outbox.ts';
import { dropStatusReferences, issueStatusReference } from './application-status.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';

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
  /** Wakes the outbox worker after a commit that queued an email. */
  outboxSignal?: OutboxSignal;
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
  const verified = await lobbyAddress(deps, input.token, now);
  if (!verified.ok) {
    deps.logger?.info({ reason: verified.reason }, 'waitlist: lobby link refused');
    return { outcome: null, email: null, tokenError: tokenErrorCode(verified.reason) };
  }
  const { email } = verified;
  const at = now.toISOString();
  const language = languageOrDefault(input.language);
  // The entry and its confirmation email in one transaction (the outbox, ADR 006): a repeat
  // inserts nothing and so queues nothing — one confirmation per address.
  const joined = await deps.db.transaction().execute(async (trx) => {
    const leaveReference = randomReference();
    const id = randomUUID();
    // Joining is the consent the lobby's text asks for: consent_at is the same moment.
    const inserted = await trx
      .insertInto('waitlist_entries')
      .values({
        id,
        email,
        language,
        joined_at: at,
        consent_at: at,
        invited_at: null,
        registration_code_id: null,
        leave_hash: hashToken(leaveReference),
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
    const sealedLeaveReference = sealForOutbox(leaveReference, deps.secret);
    const sealedStatusReference = await issueStatusReference(trx, 'waitlist', id, deps.secret, now);
    await enqueueEmail(trx, { template: 'waitlist-joined', recipient: email, locale: language, payload: { sealedLeaveReference, sealedStatusReference } }, now);
    await enqueueWebhookEvent(trx, { type: 'waitlist.joined', data: { entryId: id, language } }, now);
    return true;
  });
  if (joined) deps.outboxSignal?.notify();
  deps.logger?.info({ joined }, joined ? 'waitlist: joined' : 'waitlist: already on the list');
  return { outcome: joined ? 'JOINED' : 'ALREADY_ON_LIST', email, tokenError: null };
}

type LeaveWaitlistOutcome = 'LEFT' | 'NOT_FOUND';

/**
 * Mutation.leaveWaitlist (ADR 058): the "leave the list" link of the confirmation email. Its
 * reference is looked up by hash and the entry deleted, so the link works once; an unknown,
 * malformed or used reference is NOT_FOUND. Nothing is said about whose entry it was.
 */
export async function leaveWaitlist(deps: { db: Db; logger?: Logger }, reference: string): Promise<{ outcome: LeaveWaitlistOutcome }> {
  const ref = reference.trim();
  if (!REFERENCE_PATTERN.test(ref)) return { outcome: 'NOT_FOUND' };
  // The entry and its status links (ADR 063) go together.
  const left = await deps.db.transaction().execute(async (trx) => {
    const entry = await trx.selectFrom('waitlist_entries').select('id').where('leave_hash', '=', hashToken(ref)).executeTakeFirst();
    if (!entry) return false;
    const deleted = await trx.deleteFrom('waitlist_entries').where('id', '=', entry.id).executeTakeFirst();
    await dropStatusReferences(trx, 'waitlist', entry.id);
    return Number(deleted.numDeletedRows) === 1;
  });
  deps.logger?.info({ left }, left ? 'waitlist: left the list' : 'waitlist: leave link unknown');
  return { outcome: left ? 'LEFT' : 'NOT_FOUND' };
}

export interface LobbyTokenDetails {
  email: string | null;
  /** The address is on the waiting list already (false when the token is refused). */
  onWaitlist: boolean;
  tokenError: TokenErrorCode | null;
}

/** Query.lobbyToken: the address a lobby link (reference or token) names and whether it is on the list, or why the link is refused. Writes nothing. */
export async function describeLobbyToken(deps: { secret: string; db: Db }, token: string, now: Date = new Date()): Promise<LobbyTokenDetails> {
  const verified = await lobbyAddress(deps, token, now);
  if (!verified.ok) return { email: null, onWaitlist: false, tokenError: tokenErrorCode(verified.reason) };
  const { email } = verified;
  const entry = await deps.db.selectFrom('waitlist_entries').select('id').where('email', '=', email).executeTakeFirst();
  return { email, onWaitlist: entry !== undefined, tokenError: null };
}
