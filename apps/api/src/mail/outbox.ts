/**
 * The transactional outbox (docs/decisions/006): an email is a row written in the same
 * transaction as the change that causes it, and sent later by the outbox worker. If the
 * transaction rolls back, no email exists; once it commits, the email is sent at least once.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Locale } from '@velvet/i18n/locales';
import type { Database } from '../db/schema.ts';
import { deriveKey, seal, unseal } from '../lib/tokens.ts';

/** An ISO time, as `Date#toISOString()` writes it. */
const isoTime = z.iso.datetime();

/**
 * What a row of each template carries in `payload` (JSON): written by enqueueEmail, checked by the
 * worker before it renders the email (email-templates.ts). A secret in it is sealed: the database
 * never holds an activation id or a lobby token in clear.
 */
export const OUTBOX_PAYLOADS = {
  /** The activation email: the sealed activation id, and when the link stops working. */
  activation: z.object({ sealedActivationId: z.string(), firstName: z.string().nullable(), inviterName: z.string().nullable(), expiresAt: isoTime }),
  /**
   * The invitation email: the code, not sealed (registration_codes holds it in clear anyway, and
   * it is a one-place invitation, not an account credential), when it expires, and the sealed
   * reference of the person's status link (ADR 063; absent in rows queued before, and from the CLI without APP_SECRET).
   */
  invitation: z.object({ code: z.string(), expiresAt: isoTime, reason: z.enum(['waitlist', 'interest']), sealedStatusReference: z.string().optional() }),
  /**
   * The lobby email (ADR 029, 060): the sealed reference its short link carries (absent in rows
   * queued before 0019), the sealed signed token (the link of those rows, and of a previous
   * release's worker), and when the link stops working.
   */
  lobby: z.object({ sealedReference: z.string().optional(), sealedToken: z.string(), expiresAt: isoTime }),
  /**
   * An inviter's email when their code was quarantined or rotated (ADR 043): the code paused, and
   * the code of the fresh private link (the same, or its successor), signed when the email is
   * rendered, valid until `expiresAt`.
   */
  'private-link': z.object({ pausedCode: z.string(), linkCode: z.string(), firstName: z.string().nullable(), expiresAt: isoTime }),
  /**
   * "We received your application" (issue 22 §2, ADR 058), and since issue 24 the sealed reference
   * of its status link (ADR 063; rows queued before carry none and are sent without the link).
   */
  'application-received': z.object({ sealedStatusReference: z.string().optional() }),
  /**
   * "You are on the waiting list" (ADR 058): the sealed leave reference (128 random bits; the
   * entry keeps its hash), which the email's "leave the list" link carries, and the status link's (ADR 063).
   */
  'waitlist-joined': z.object({ sealedLeaveReference: z.string(), sealedStatusReference: z.string().optional() }),
  /**
   * The decline (issue 24 §1, ADR 063): the reason as the owner wrote it in the applicant's
   * language when the decision was made, when the address may apply again, the sealed status
   * reference, and the "join the waiting list" link with its expiry: the sealed short reference
   * (ADR 060; absent in rows queued before it) and the sealed signed token (those rows' link).
   */
  'application-declined': z.object({
    reason: z.string(),
    reapplyAfter: isoTime,
    sealedStatusReference: z.string(),
    sealedLobbyReference: z.string().optional(),
    sealedLobbyToken: z.string(),
    lobbyExpiresAt: isoTime,
  }),
  /**
   * The "manage my data" email (issue 24 §2, ADR 066), asked for on the public form: the sealed
   * reference of the data link (data_links keeps its hash) and when it stops working.
   */
  'data-link': z.object({ sealedReference: z.string(), expiresAt: isoTime }),
  /**
   * To an owner when a webhook endpoint failed for 24 hours and was switched off (issue 24 §4,
   * ADR 065): its host and description, and since when it failed.
   */
  'webhook-disabled': z.object({ endpointHost: z.string(), description: z.string(), failingSince: isoTime }),
  /**
   * The welcome email after activation (ADR 058): the voucher exactly as the welcome page shows it.
   * Its code is not sealed: welcome_vouchers holds it in clear, and it buys a first-order discount
   * for this member only, not an account.
   */
  welcome: z.object({
    firstName: z.string().nullable(),
    voucher: z.object({
      code: z.string(),
      percent: z.number().int().positive(),
      minimumOrderValue: z.number().positive().nullable(),
      currency: z.string().length(3),
      validUntil: isoTime,
    }),
  }),
};

export type EmailTemplate = keyof typeof OUTBOX_PAYLOADS;
export type EmailPayload<T extends EmailTemplate> = z.infer<(typeof OUTBOX_PAYLOADS)[T]>;
export type ActivationEmailPayload = EmailPayload<'activation'>;
export type InvitationEmailPayload = EmailPayload<'invitation'>;

export interface NewEmail<T extends EmailTemplate> {
  template: T;
  recipient: string;
  locale: Locale;
  payload: EmailPayload<T>;
}

/** Inserts an outbox row (call inside the transaction that causes the email); returns its id. */
export async function enqueueEmail<T extends EmailTemplate>(
  db: Kysely<Database>,
  email: NewEmail<T>,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  await db
    .insertInto('email_outbox')
    .values({
      id,
      recipient: email.recipient,
      template: email.template,
      locale: email.locale,
      payload: JSON.stringify(email.payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      locked_until: null,
      last_error: null,
      created_at: at,
      sent_at: null,
    })
    .execute();
  return id;
}

const outboxKey = (secret: string) => deriveKey(secret, 'email-outbox-payload');

export function sealForOutbox(value: string, secret: string): string {
  return seal(value, outboxKey(secret));
}

export function unsealFromOutbox(value: string, secret: string): string {
  return unseal(value, outboxKey(secret));
}
