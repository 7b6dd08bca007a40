/**
 * Activation links: 256 random bits in the link, only their SHA-256 hash in the database,
 * single use, valid ACTIVATION_VALIDITY_DAYS. Issuing a new link supersedes the member's
 * older unused ones, so only the newest email works.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Locale } from '@velvet/i18n/locales';
import type { ActivationReason, Database } from '../db/schema.ts';
import { enqueueEmail, sealForOutbox } from '../mail/outbox.ts';
import { hashToken, randomToken } from '../lib/tokens.ts';

export const ACTIVATION_VALIDITY_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface IssueActivationInput {
  memberId: string;
  recipient: string;
  locale: Locale;
  firstName: string | null;
  inviterName: string | null;
  reason: ActivationReason;
}

/** When a link issued at `now` stops working: the member's place is held until then. */
export function activationExpiry(now: Date): string {
  return new Date(now.getTime() + ACTIVATION_VALIDITY_DAYS * DAY_MS).toISOString();
}

/**
 * Inside the caller's transaction: supersedes the member's unused links, stores a new
 * link's hash, holds the member's place until the link expires (ADR 036) and queues the
 * activation email. Returns the outbox row id and the link id (the latter for the caller's
 * tests and nothing else: it is never logged or stored).
 *
 * `firstLink`: the member was created in this transaction with `place_held_until` =
 * activationExpiry(now) — there is no link to supersede and the place is written: two
 * statements fewer while a new registration holds its code's lock (ADR 036).
 */
export async function issueActivation(
  trx: Kysely<Database>,
  input: IssueActivationInput,
  options: { secret: string; now: Date; firstLink?: boolean },
): Promise<{ outboxId: string; activationId: string; expiresAt: string }> {
  const { now } = options;
  const at = now.toISOString();
  if (!options.firstLink) {
    await trx
      .updateTable('activations')
      .set({ superseded_at: at })
      .where('member_id', '=', input.memberId)
      .where('used_at', 'is', null)
      .where('superseded_at', 'is', null)
      .execute();
  }
  const activationId = randomToken();
  const expiresAt = activationExpiry(now);
  await trx
    .insertInto('activations')
    .values({
      id: randomUUID(),
      member_id: input.memberId,
      token_hash: hashToken(activationId),
      reason: input.reason,
      created_at: at,
      expires_at: expiresAt,
      used_at: null,
      superseded_at: null,
    })
    .execute();
  // The newest link is the current one: the member's place is held until it expires (invitation-places.ts).
  if (!options.firstLink) await trx.updateTable('members').set({ place_held_until: expiresAt }).where('id', '=', input.memberId).execute();
  const outboxId = await enqueueEmail(
    trx,
    {
      template: 'activation',
      recipient: input.recipient,
      locale: input.locale,
      payload: {
        sealedActivationId: sealForOutbox(activationId, options.secret),
        firstName: input.firstName,
        inviterName: input.inviterName,
        expiresAt,
      },
    },
    now,
  );
  return { outboxId, activationId, expiresAt };
}
