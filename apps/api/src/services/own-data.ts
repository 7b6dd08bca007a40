/**
 * Pre-members own their data without an account (issue 24 §2, ADR 066). The people at the door —
 * applicants, waitlisters, invitees whose registration is pending — open a "manage my data" link
 * (in the footer of every email the door sends them, or asked for on the public form) and see
 * what the club holds, download it (the admin export's schema), delete it (the admin erasure:
 * the consent proofs stay under the pseudonym) or withdraw newsletter consent. The link is a
 * random reference (128 bits) stored only as its SHA-256 with the address and an expiry of
 * DATA_LINK_DAYS; a new one comes through the form. The audit log names the person by their
 * pseudonym, as actor and target (ADR 048).
 *
 * What needs a person — the address belongs to an active member, whose shop account the door
 * cannot delete, or a free-text request on the form — becomes a privacy request, due one month
 * after it came in (GDPR Art. 12(3)), listed in the console's Privacy tab until an operator marks
 * it done.
 */
import { randomUUID } from 'node:crypto';
import { email as emailField } from '@velvet/validation/registration';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database, PrivacyRequestKind } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { checkMailAddress } from '../domain/mail-domains.ts';
import type { MailDomainChecker } from '../domain/mail-domains.ts';
import { privacySubject } from '../domain/privacy-subject.ts';
import type { SignUpGate } from '../domain/sign-up-gate.ts';
import { hashToken } from '../lib/tokens.ts';
import { createDataLink, dataLinkAddress } from '../domain/data-links.ts';
import type { Logger } from '../logger.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { enqueueEmail, sealForOutbox } from '../mail/outbox.ts';
import { languageOrDefault } from './join-waitlist.ts';
import { collectPersonalData, erasePersonalData, exportPersonalData } from './personal-data.ts';
import type { PrivacyDeps } from './personal-data.ts';
import type { FieldError } from './registration/outcomes.ts';

/** Data-link emails one address can receive per hour through the form. */
const DATA_LINKS_PER_HOUR = 3;
/** The longest free-text request the form takes. */
const PRIVACY_MESSAGE_MAX = 2000;

/** The person themself, named by their pseudonym (ADR 048): the audit log's actor for what they do through their link. */
const selfActor = (email: string, secret: string, clientAddress: string | null): AuditActor => ({
  adminId: null,
  email: privacySubject(email, secret),
  clientAddress,
});

/** Inside the caller's transaction: a request that needs a person, due a month after it came in; audited. */
async function openPrivacyRequest(
  trx: Kysely<Database>,
  deps: { secret: string; now: Date },
  request: { email: string; kind: PrivacyRequestKind; message: string | null; language: string; clientAddress: string | null },
): Promise<string> {
  const id = randomUUID();
  const subject = privacySubject(request.email, deps.secret);
  const due = new Date(deps.now);
  due.setUTCMonth(due.getUTCMonth() + 1);
  await trx
    .insertInto('privacy_requests')
    .values({
      id,
      email: request.email,
      subject,
      kind: request.kind,
      message: request.message,
      language: request.language,
      received_at: deps.now.toISOString(),
      due_at: due.toISOString(),
      done_at: null,
      done_by_admin_id: null,
    })
    .execute();
  await recordAudit(trx, selfActor(request.email, deps.secret, request.clientAddress), { action: 'privacy.request-received', target: subject, details: { requestId: id, kind: request.kind } }, deps.now);
  return id;
}

export interface RequestDataLinkDeps {
  db: Db;
  secret: string;
  now: Date;
  outboxSignal?: OutboxSignal;
  logger?: Logger;
  gate?: SignUpGate;
  mailDomains?: MailDomainChecker | null;
  clientAddress?: string | null;
}

/**
 * Mutation.requestDataLink: emails a data link to the address — whether the club knows it or not,
 * the same answer and the same email (its page then says nothing is held) — at most
 * DATA_LINKS_PER_HOUR an hour (beyond, the same answer and none). A free-text request becomes a
 * privacy request. Only a malformed address is refused.
 */
export async function requestDataLink(
  deps: RequestDataLinkDeps,
  input: { email: string; language?: string | null; proofOfWork?: string | null; message?: string | null },
): Promise<{ sent: boolean; fieldErrors: FieldError[] }> {
  const parsed = emailField.safeParse(input.email);
  if (!parsed.success) return { sent: false, fieldErrors: [{ field: 'email', code: parsed.error.issues[0]?.message ?? 'validation.email' }] };
  const email = parsed.data.toLowerCase();
  const message = input.message?.trim().slice(0, PRIVACY_MESSAGE_MAX) || null;
  const mailbox = await checkMailAddress(email, deps.mailDomains ?? null);
  if (!mailbox.ok) return { sent: false, fieldErrors: [{ field: 'email', code: mailbox.messageId }] };
  if (deps.gate && !(await deps.gate.admit('WAITING_LIST', { email, proofOfWork: input.proofOfWork }))) return { sent: true, fieldErrors: [] };
  const { now } = deps;
  const locale = languageOrDefault(input.language);
  const recent = await deps.db
    .selectFrom('email_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('template', '=', 'data-link')
    .where('recipient', '=', email)
    .where('created_at', '>', new Date(now.getTime() - 3_600_000).toISOString())
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= DATA_LINKS_PER_HOUR) {
    deps.logger?.info({}, 'own data: link limit reached, no email');
    return { sent: true, fieldErrors: [] };
  }
  await deps.db.transaction().execute(async (trx) => {
    if (message) await openPrivacyRequest(trx, deps, { email, kind: 'other', message, language: locale, clientAddress: deps.clientAddress ?? null });
    const link = await createDataLink(trx, email, now);
    await enqueueEmail(
      trx,
      { template: 'data-link', recipient: email, locale, payload: { sealedReference: sealForOutbox(link.reference, deps.secret), expiresAt: link.expiresAt.toISOString() } },
      now,
    );
  });
  deps.outboxSignal?.notify();
  return { sent: true, fieldErrors: [] };
}

interface OwnDataView {
  email: string;
  /** The export document (the admin export's schema), null when nothing is held. */
  document: Record<string, unknown> | null;
  /** Whether newsletter consent is given (a pending registration's). */
  newsletter: boolean;
  /** An active member: a deletion becomes a request for an operator. */
  activeMember: boolean;
  /** An open privacy request of this address (received date, due date). */
  openRequest: { receivedAt: string; dueAt: string } | null;
  linkExpiresAt: string;
}

export type OwnDataRead = { ok: true; view: OwnDataView } | { ok: false; reason: 'invalid' | 'expired' };

/** Query.ownData: what the club holds about the link's address. Writes nothing (mail scanners open links too). */
export async function readOwnData(deps: PrivacyDeps, reference: string): Promise<OwnDataRead> {
  const address = await dataLinkAddress(deps.db, reference, deps.now);
  if (!address.ok) return address;
  const { email } = address;
  const [collected, link, openRequest] = await Promise.all([
    collectPersonalData(deps, email),
    deps.db.selectFrom('data_links').select('expires_at').where('reference_hash', '=', hashToken(reference.trim())).executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('privacy_requests')
      .select(['received_at', 'due_at'])
      .where('email', '=', email)
      .where('done_at', 'is', null)
      .orderBy('received_at', 'desc')
      .executeTakeFirst(),
  ]);
  const registration = collected?.document.registration as { status?: string; newsletter?: boolean } | null | undefined;
  return {
    ok: true,
    view: {
      email,
      document: collected?.document ?? null,
      newsletter: registration?.newsletter === true,
      activeMember: registration?.status === 'active',
      openRequest: openRequest ? { receivedAt: openRequest.received_at, dueAt: openRequest.due_at } : null,
      linkExpiresAt: link.expires_at,
    },
  };
}

/** Query.ownDataExport: the JSON file (the admin export's schema), audited as the person's own export. */
export async function exportOwnData(deps: PrivacyDeps, reference: string, clientAddress: string | null): Promise<{ fileName: string; document: string } | null> {
  const address = await dataLinkAddress(deps.db, reference, deps.now);
  if (!address.ok) return null;
  const result = await exportPersonalData(deps, selfActor(address.email, deps.secret, clientAddress), { email: address.email });
  return result.ok ? result.value : null;
}

export type EraseOwnOutcome = 'ERASED' | 'REQUESTED' | 'NOTHING_HELD' | 'NOT_FOUND';

/**
 * Mutation.eraseOwnData: the admin erasure with the person as its actor (consent proofs kept
 * under the pseudonym; the link goes with the rest). An active member's account is the shop's:
 * the door opens a privacy request for an operator instead.
 */
export async function eraseOwnData(deps: PrivacyDeps, reference: string, clientAddress: string | null, language: string | null): Promise<EraseOwnOutcome> {
  const address = await dataLinkAddress(deps.db, reference, deps.now);
  if (!address.ok) return 'NOT_FOUND';
  const { email } = address;
  const member = await deps.db.selectFrom('members').select('status').where('email', '=', email).executeTakeFirst();
  if (member?.status === 'active') {
    await deps.db.transaction().execute((trx) =>
      openPrivacyRequest(trx, deps, { email, kind: 'erase-member', message: null, language: languageOrDefault(language), clientAddress }),
    );
    return 'REQUESTED';
  }
  const erased = await erasePersonalData(deps, selfActor(email, deps.secret, clientAddress), { email });
  await deps.db.deleteFrom('data_links').where('email', '=', email).execute();
  return erased.ok ? 'ERASED' : 'NOTHING_HELD';
}

export type WithdrawNewsletterOutcome = 'WITHDRAWN' | 'NOT_SUBSCRIBED' | 'NOT_FOUND';

/** Mutation.withdrawOwnNewsletter: newsletter consent off (the registration and a held one), nothing else changed; audited. */
export async function withdrawOwnNewsletter(deps: PrivacyDeps, reference: string, clientAddress: string | null): Promise<WithdrawNewsletterOutcome> {
  const address = await dataLinkAddress(deps.db, reference, deps.now);
  if (!address.ok) return 'NOT_FOUND';
  const { email } = address;
  return deps.db.transaction().execute(async (trx): Promise<WithdrawNewsletterOutcome> => {
    const changed = await trx.updateTable('members').set({ newsletter: false }).where('email', '=', email).where('newsletter', '=', true).executeTakeFirst();
    const held = await trx.selectFrom('held_registrations').select(['id', 'submission']).where('email', '=', email).execute();
    let heldChanged = 0;
    for (const row of held) {
      const submission = JSON.parse(row.submission) as { newsletter?: boolean };
      if (submission.newsletter !== true) continue;
      await trx.updateTable('held_registrations').set({ submission: JSON.stringify({ ...submission, newsletter: false }) }).where('id', '=', row.id).execute();
      heldChanged += 1;
    }
    if (Number(changed.numUpdatedRows) === 0 && heldChanged === 0) return 'NOT_SUBSCRIBED';
    const subject = privacySubject(email, deps.secret);
    await recordAudit(trx, selfActor(email, deps.secret, clientAddress), { action: 'privacy.newsletter-withdrawn', target: subject }, deps.now);
    return 'WITHDRAWN';
  });
}

export interface PrivacyRequestRow {
  id: string;
  email: string;
  kind: PrivacyRequestKind;
  message: string | null;
  language: string;
  receivedAt: string;
  dueAt: string;
  doneAt: string | null;
}

/** Query.privacyRequests (console): the open ones by due date, then the last 50 done. */
export async function listPrivacyRequests(db: Db): Promise<PrivacyRequestRow[]> {
  const columns = ['id', 'email', 'kind', 'message', 'language', 'received_at', 'due_at', 'done_at'] as const;
  const [open, done] = await Promise.all([
    db.selectFrom('privacy_requests').select(columns).where('done_at', 'is', null).orderBy('due_at', 'asc').execute(),
    db.selectFrom('privacy_requests').select(columns).where('done_at', 'is not', null).orderBy('done_at', 'desc').limit(50).execute(),
  ]);
  return [...open, ...done].map((r) => ({ id: r.id, email: r.email, kind: r.kind, message: r.message, language: r.language, receivedAt: r.received_at, dueAt: r.due_at, doneAt: r.done_at }));
}

/** Mutation.markPrivacyRequestDone (console): audited under the pseudonym; false when unknown or done already. */
export async function markPrivacyRequestDone(deps: { db: Db; now: Date }, actor: AuditActor, id: string): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('privacy_requests').select(['subject', 'kind', 'received_at']).where('id', '=', id).where('done_at', 'is', null).executeTakeFirst();
    if (!row) return false;
    await trx.updateTable('privacy_requests').set({ done_at: deps.now.toISOString(), done_by_admin_id: actor.adminId }).where('id', '=', id).execute();
    await recordAudit(trx, actor, { action: 'privacy.request-done', target: row.subject, details: { requestId: id, kind: row.kind, receivedAt: row.received_at } }, deps.now);
    return true;
  });
}
