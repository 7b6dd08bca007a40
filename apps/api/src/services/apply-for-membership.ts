/**
 * Mutation.applyForMembership (spec §2 membership interest): an address, nothing more.
 * The answer is the same for a first application, a repeated one and an address that
 * already belongs to a member, so the form tells nobody anything about other people;
 * only a malformed address is refused (validation.email / validation.emailTooLong), or one that
 * cannot receive mail (validation.disposableEmail / validation.emailDomain, ADR 042).
 * One application per address: a repeat changes nothing. A new one queues the "we received
 * your application" email (ADR 058), which goes to the address, never to whoever typed it, with
 * its status link (ADR 063). An address declined within the cool-down the owner set is told when
 * it may apply again, and nothing is written (issue 24 §1, ADR 063).
 */
import { randomUUID } from 'node:crypto';
import { COUNTRIES } from '@velvet/i18n/locales';
import { email as emailField } from '@velvet/validation/registration';
import type { Db } from '../db/connect.ts';
import type { Logger } from '../logger.ts';
import { languageOrDefault } from './join-waitlist.ts';
import { checkMailAddress } from '../domain/mail-domains.ts';
import type { MailDomainChecker } from '../domain/mail-domains.ts';
import type { SignUpGate } from '../domain/sign-up-gate.ts';
import type { FieldError } from './registration/outcomes.ts';
import { enqueueEmail } from '../mail/outbox.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { reapplyAfter } from './application-decisions.ts';
import { issueStatusReference } from './application-status.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';

export interface ApplyForMembershipResult {
  accepted: boolean;
  fieldErrors: FieldError[];
  /** Declined within the cool-down: from when the address may apply again (nothing was written). */
  reapplyAfter?: string | null;
}

export interface ApplyForMembershipDeps {
  db: Db;
  /** APP_SECRET: the pseudonym a decline is kept under, and the sealed status reference. */
  secret: string;
  logger?: Logger;
  now?: Date;
  /** The public form's gate (proof of work, mailbox limit; ADR 041). */
  gate?: SignUpGate;
  /** Asks DNS whether the address's domain receives mail (ADR 042). */
  mailDomains?: MailDomainChecker | null;
  /** Wakes the outbox worker after a commit that queued an email. */
  outboxSignal?: OutboxSignal;
}

/** A served country's ISO code, else null (a country is applied only if supported, spec §5). */
function servedCountryOrNull(country: string | null | undefined): string | null {
  const code = country?.trim().toUpperCase();
  return code && (COUNTRIES as readonly string[]).includes(code) ? code : null;
}

export async function applyForMembership(
  deps: ApplyForMembershipDeps,
  input: { email: string; language?: string | null; country?: string | null; proofOfWork?: string | null },
): Promise<ApplyForMembershipResult> {
  const parsed = emailField.safeParse(input.email);
  if (!parsed.success) {
    return { accepted: false, fieldErrors: [{ field: 'email', code: parsed.error.issues[0]?.message ?? 'validation.email' }] };
  }
  const mailbox = await checkMailAddress(parsed.data, deps.mailDomains ?? null);
  if (!mailbox.ok) return { accepted: false, fieldErrors: [{ field: 'email', code: mailbox.messageId }] };
  // Refused by the gate: the same answer, nothing written (ADR 041).
  if (deps.gate && !(await deps.gate.admit('MEMBERSHIP_INTEREST', { email: parsed.data, proofOfWork: input.proofOfWork }))) {
    return { accepted: true, fieldErrors: [] };
  }
  const now = deps.now ?? new Date();
  // Asked after the gate, so finding out whether an address was declined costs a script its proof of work.
  const until = await reapplyAfter(deps.db, parsed.data, deps.secret, now);
  if (until) {
    deps.logger?.info({}, 'membership interest: declined address within its cool-down');
    return { accepted: false, fieldErrors: [], reapplyAfter: until };
  }
  const at = now.toISOString();
  const language = languageOrDefault(input.language);
  // The application and its "we received it" email in one transaction (ADR 006, 058): a repeat
  // inserts nothing and so queues nothing — one confirmation per address.
  const newApplication = await deps.db.transaction().execute(async (trx) => {
    const id = randomUUID();
    const inserted = await trx
      .insertInto('membership_applications')
      .values({
        id,
        email: parsed.data,
        language,
        country: servedCountryOrNull(input.country),
        consent_at: at,
        created_at: at,
        selected_at: null,
        registration_code_id: null,
        mail_domain_unverified: mailbox.unverified,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
    const sealedStatusReference = await issueStatusReference(trx, 'application', id, deps.secret, now);
    await enqueueEmail(trx, { template: 'application-received', recipient: parsed.data, locale: language, payload: { sealedStatusReference } }, now);
    await enqueueWebhookEvent(trx, { type: 'application.received', data: { applicationId: id, country: servedCountryOrNull(input.country), language } }, now);
    return true;
  });
  if (newApplication) deps.outboxSignal?.notify();
  // Logged without the address; the client's answer does not depend on it.
  deps.logger?.info({ newApplication }, 'membership interest: application received');
  return { accepted: true, fieldErrors: [] };
}
