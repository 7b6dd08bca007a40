/**
 * Mutation.requestLobbyLink (ADR 029): the way onto the waiting list from the site itself
 * (the landing page's waiting-list block, the deny page). The site never hands a lobby link
 * to whoever typed an address: the link — a short random reference standing for the address
 * until the link expires (ADR 060) — goes to that address by email, so only its owner can open
 * the lobby and join. The answer
 * is the same whether the address is new, already on the list or a member's, and at most
 * LOBBY_LINKS_PER_HOUR emails an hour go to one address (beyond, silently none); only a
 * malformed address is refused (validation.email / validation.emailTooLong).
 */
import { signLobbyToken } from '@velvet/tokens/signed-token';
import { email as emailField } from '@velvet/validation/registration';
import type { Db } from '../db/connect.ts';
import type { Logger } from '../logger.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { enqueueEmail, sealForOutbox } from '../mail/outbox.ts';
import { createLobbyLink } from '../domain/lobby-links.ts';
import { languageOrDefault } from './join-waitlist.ts';
import { checkMailAddress } from '../domain/mail-domains.ts';
import type { MailDomainChecker } from '../domain/mail-domains.ts';
import type { SignUpGate } from '../domain/sign-up-gate.ts';
import type { FieldError } from './registration/outcomes.ts';

/** How long an emailed lobby link works. */
const LOBBY_LINK_EMAIL_DAYS = 7;
/** Lobby emails one address can receive per hour. */
export const LOBBY_LINKS_PER_HOUR = 3;

export interface RequestLobbyLinkResult {
  sent: boolean;
  fieldErrors: FieldError[];
}

export interface RequestLobbyLinkDeps {
  db: Db;
  secret: string;
  outboxSignal?: OutboxSignal;
  logger?: Logger;
  now?: Date;
  /** The public form's gate (proof of work, mailbox limit; ADR 041). */
  gate?: SignUpGate;
  /** Asks DNS whether the address's domain receives mail (ADR 042). */
  mailDomains?: MailDomainChecker | null;
}

export async function requestLobbyLink(
  deps: RequestLobbyLinkDeps,
  input: { email: string; language?: string | null; proofOfWork?: string | null },
): Promise<RequestLobbyLinkResult> {
  const parsed = emailField.safeParse(input.email);
  if (!parsed.success) return { sent: false, fieldErrors: [{ field: 'email', code: parsed.error.issues[0]?.message ?? 'validation.email' }] };
  const email = parsed.data;
  const mailbox = await checkMailAddress(email, deps.mailDomains ?? null);
  if (!mailbox.ok) return { sent: false, fieldErrors: [{ field: 'email', code: mailbox.messageId }] };
  // Refused by the gate: the same answer, no email (ADR 041).
  if (deps.gate && !(await deps.gate.admit('WAITING_LIST', { email, proofOfWork: input.proofOfWork }))) return { sent: true, fieldErrors: [] };
  const now = deps.now ?? new Date();
  const locale = languageOrDefault(input.language);
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  const recent = await deps.db
    .selectFrom('email_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('template', '=', 'lobby')
    .where('recipient', '=', email)
    .where('created_at', '>', hourAgo)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= LOBBY_LINKS_PER_HOUR) {
    deps.logger?.info({}, 'waitlist: lobby link limit reached, no email');
    return { sent: true, fieldErrors: [] };
  }
  const ttlSeconds = LOBBY_LINK_EMAIL_DAYS * 86_400;
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  // The signed token too, for one release: an outbox worker of the previous version sends the
  // row with it (its payload schema requires it); this version sends the short reference.
  const token = await signLobbyToken({ email }, deps.secret, ttlSeconds, now);
  // The link and its email in one transaction (the outbox, ADR 006).
  const outboxId = await deps.db.transaction().execute(async (trx) => {
    const reference = await createLobbyLink(trx, email, expiresAt, now);
    return enqueueEmail(
      trx,
      {
        template: 'lobby',
        recipient: email,
        locale,
        // Both are bearer credentials: sealed like an activation id.
        payload: { sealedReference: sealForOutbox(reference, deps.secret), sealedToken: sealForOutbox(token, deps.secret), expiresAt: expiresAt.toISOString() },
      },
      now,
    );
  });
  deps.outboxSignal?.notify();
  deps.logger?.info({ outboxId }, 'waitlist: lobby link sent');
  return { sent: true, fieldErrors: [] };
}
