/**
 * The transactional outbox (docs/decisions/006): an email is a row written in the same
 * transaction as the change that causes it, and sent later by the outbox worker. If the
 * transaction rolls back, no email exists; once it commits, the email is sent at least once.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Locale } from '@velvet/i18n/locales';
import type { Database } from '../db/schema.ts';
import { deriveKey, seal, unseal } from '../lib/tokens.ts';

export type EmailTemplate = 'activation' | 'invitation' | 'lobby' | 'private-link';

/** What the activation email needs. The activation id is sealed: the database never holds it in clear. */
export interface ActivationEmailPayload {
  sealedActivationId: string;
  firstName: string | null;
  inviterName: string | null;
  /** ISO time the link stops working. */
  expiresAt: string;
}

/**
 * What the invitation email needs. The code is not sealed: registration_codes holds it in
 * clear anyway, and it is a one-place invitation, not an account credential.
 */
export interface InvitationEmailPayload {
  code: string;
  /** ISO time the code expires. */
  expiresAt: string;
  reason: 'waitlist' | 'interest';
}

/** What the lobby email needs (ADR 029). The lobby token is sealed: it is a bearer credential. */
export interface LobbyEmailPayload {
  sealedToken: string;
  /** ISO time the link stops working. */
  expiresAt: string;
}

/**
 * What an inviter's email needs when their code was quarantined or rotated (ADR 043): the code
 * paused, and the code of the fresh private link (the same, or its successor). The link is
 * signed when the email is rendered, valid until `expiresAt`.
 */
export interface PrivateLinkEmailPayload {
  pausedCode: string;
  linkCode: string;
  firstName: string | null;
  expiresAt: string;
}

interface PayloadByTemplate {
  activation: ActivationEmailPayload;
  invitation: InvitationEmailPayload;
  lobby: LobbyEmailPayload;
  'private-link': PrivateLinkEmailPayload;
}

export interface NewEmail<T extends EmailTemplate> {
  template: T;
  recipient: string;
  locale: Locale;
  payload: PayloadByTemplate[T];
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
