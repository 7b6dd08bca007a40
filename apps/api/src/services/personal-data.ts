/**
 * The data-protection tools (issue 13, ADR 048): export everything held about one address as a
 * machine-readable file (GDPR Art. 15 and 20), and delete it (Art. 17) — keeping what the club
 * must keep and saying so. Both are audited under a pseudonym of the address, never the address.
 *
 * Kept after a deletion, in `privacy_erasures` under the pseudonym (no address, no name):
 * - the consent proofs (which terms and data-policy versions were accepted, when, for which
 *   country, and whether newsletter consent was given; when the waiting list or an application
 *   was consented to) — the club must be able to show the consent it relied on (Art. 7(1));
 * - the fact of the deletion request: when, by which admin, how many rows of each kind went
 *   (Art. 5(2), accountability).
 * A person who invited others stays as an anonymised, blocked stub (no address, no name): their
 * codes and the registrations made with them keep their history, and the codes stop working.
 */
import { randomUUID } from 'node:crypto';
import { PERSONAL_DATA_EXPORT_SCHEMA, PERSONAL_DATA_EXPORT_VERSION } from '@velvet/validation/admin-members';
import type { UserError } from '@velvet/validation/user-errors';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { privacySubject } from '../domain/privacy-subject.ts';
import { forgetMailbox } from '../domain/sign-up-gate.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import type { RateLimiters } from '../rate-limit.ts';
import { dropStatusReferences } from './application-status.ts';
import { normalizedAddress, recordOf } from './look-up-member.ts';
import type { HeldSubmission } from './registration/hold-registration.ts';

export interface PrivacyDeps {
  db: Db;
  secret: string;
  now: Date;
  /** The mailbox limit's counts of an address (Redis or memory) go with an erasure. */
  limiters: Pick<RateLimiters, 'signUpMailbox'>;
}

const NOTHING_FOUND: UserError = { code: 'NOTHING_FOUND', field: 'email', messageId: 'admin.members.nothingFound' };

/** What the export and the deletion page say is kept after a deletion, and why. */
export const KEPT_AFTER_DELETION =
  'Consent proofs (which terms and data-policy versions were accepted, when, for which country, newsletter consent yes/no; ' +
  'when the waiting list or an application was consented to) and the record of the deletion request itself (when, by which ' +
  'admin, how many records went), under a pseudonym of the address: the club must be able to show the consent it relied on ' +
  '(GDPR Art. 7(1)) and that it honoured the request (Art. 5(2)). Kept 3 years (the limitation period), never the address.';

/** Outbox payload keys that are secrets (sealed links and tokens): never exported. */
const isSecretKey = (key: string) => key.startsWith('sealed');

/**
 * A held registration's stored submission, as kept (`HeldSubmission`): the form as the person
 * sent it — names, gender, country, newsletter, the terms and data-policy versions accepted,
 * language — and, after a social sign-in, what the provider said. The proof of work was never
 * kept. Text that is not JSON is handed over as it is stored.
 */
function heldSubmissionOf(stored: string): HeldSubmission | { stored: string } {
  try {
    return JSON.parse(stored) as HeldSubmission;
  } catch {
    return { stored };
  }
}

function payloadWithoutSecrets(payload: string): Record<string, unknown> {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(value).filter(([key]) => !isSecretKey(key)));
  } catch {
    return {};
  }
}

/**
 * Everything held about one normalized address, as the export's document, and the counts its
 * audit entry records; null when nothing is held. Writes nothing: the person's own data page
 * shows it (issue 24 §2, ADR 066) and only a download is audited.
 */
export async function collectPersonalData(
  deps: Pick<PrivacyDeps, 'db' | 'secret' | 'now'>,
  email: string,
): Promise<{ document: Record<string, unknown>; reference: string; counts: Record<string, number> } | null> {
  const { db } = deps;
  const record = await recordOf(deps, email);
  if (!record) return null;
  const memberId = record.registration?.id ?? null;
  const [held, emails, ownCodes, voucher, preferences, identities] = await Promise.all([
    db
      .selectFrom('held_registrations as h')
      .innerJoin('registration_codes as rc', 'rc.id', 'h.registration_code_id')
      .select(['rc.code', 'h.created_at', 'h.language', 'h.submission'])
      .where('h.email', '=', email)
      .orderBy('h.created_at', 'desc')
      .execute(),
    db
      .selectFrom('email_outbox')
      .select(['template', 'locale', 'status', 'attempts', 'created_at', 'sent_at', 'payload'])
      .where('recipient', '=', email)
      .orderBy('created_at', 'desc')
      .execute(),
    memberId
      ? db.selectFrom('registration_codes').select(['id', 'code', 'balance', 'expires_at', 'created_at', 'disabled']).where('inviter_member_id', '=', memberId).execute()
      : [],
    memberId ? db.selectFrom('welcome_vouchers').selectAll().where('member_id', '=', memberId).executeTakeFirst() : undefined,
    memberId ? db.selectFrom('member_preferences').select('preference').where('member_id', '=', memberId).execute() : [],
    memberId ? db.selectFrom('member_social_identities').select(['provider', 'created_at']).where('member_id', '=', memberId).execute() : [],
  ]);
  const funnel =
    ownCodes.length === 0
      ? []
      : await db
          .selectFrom('funnel_events')
          .select(['registration_code_id', 'event', (eb) => eb.fn.countAll<number>().as('n')])
          .where(
            'registration_code_id',
            'in',
            ownCodes.map((c) => c.id),
          )
          .groupBy(['registration_code_id', 'event'])
          .execute();
  const exportedAt = deps.now.toISOString();
  const document = {
    schema: PERSONAL_DATA_EXPORT_SCHEMA,
    version: PERSONAL_DATA_EXPORT_VERSION,
    exportedAt,
    email,
    reference: record.reference,
    registration: record.registration
      ? {
          ...record.registration,
          welcomeVoucher: voucher
            ? { code: voucher.code, percent: voucher.percent, minimumOrderValue: voucher.minimum_order_value, currency: voucher.currency, validUntil: voucher.valid_until }
            : null,
          shoppingPreferences: preferences.map((p) => p.preference),
          socialSignIns: identities.map((i) => ({ provider: i.provider, createdAt: i.created_at })),
        }
      : null,
    heldRegistrations: held.map((h) => ({ code: h.code, createdAt: h.created_at, language: h.language, submission: heldSubmissionOf(h.submission) })),
    waitingList: record.waitlist,
    application: record.application,
    consentRecords: record.registration?.consents ?? [],
    ownInvitationCodes: ownCodes.map((c) => ({
      code: c.code,
      balance: c.balance,
      expiresAt: c.expires_at,
      createdAt: c.created_at,
      disabled: c.disabled,
      funnel: Object.fromEntries(funnel.filter((f) => f.registration_code_id === c.id).map((f) => [f.event, Number(f.n)])),
    })),
    emails: emails.map((e) => ({
      template: e.template,
      locale: e.locale,
      status: e.status,
      attempts: e.attempts,
      createdAt: e.created_at,
      sentAt: e.sent_at,
      content: payloadWithoutSecrets(e.payload),
    })),
    notHeldByAddress:
      'Cookie-consent choices and funnel events of visits are stored under a random browser id, never with an address, ' +
      'so they cannot be found by address. Activation links are stored only as hashes and are not part of the export.',
    keptAfterDeletion: KEPT_AFTER_DELETION,
  };
  return { document, reference: record.reference, counts: countsOf(record, emails.length, ownCodes.length) };
}

export async function exportPersonalData(
  deps: PrivacyDeps,
  actor: AuditActor,
  input: { email: string },
): Promise<Result<{ fileName: string; document: string }>> {
  const address = normalizedAddress(input.email);
  if (!address.ok) return address;
  const collected = await collectPersonalData(deps, address.value);
  if (!collected) return fail(NOTHING_FOUND);
  const { document, reference, counts } = collected;
  await deps.db.transaction().execute((trx) => recordAudit(trx, actor, { action: 'privacy.exported', target: reference, details: { counts } }, deps.now));
  const stamp = deps.now.toISOString().slice(0, 19).replaceAll(':', '-');
  return ok({ fileName: `personal-data-${reference.slice('subject:'.length, 'subject:'.length + 8)}-${stamp}.json`, document: JSON.stringify(document, null, 2) });
}

function countsOf(record: NonNullable<Awaited<ReturnType<typeof recordOf>>>, emails: number, ownCodes: number): Record<string, number> {
  return {
    registrations: record.registration ? 1 : 0,
    heldRegistrations: record.heldRegistrations.length,
    waitingList: record.waitlist ? 1 : 0,
    applications: record.application ? 1 : 0,
    consentRecords: record.registration?.consents.length ?? 0,
    activationLinks: record.registration?.activations.length ?? 0,
    emails,
    ownInvitationCodes: ownCodes,
  };
}

export interface ErasureReceipt {
  erasureId: string;
  reference: string;
  erasedAt: string;
  removed: Record<string, number>;
  keptConsentProofs: number;
  /** The person invited others: an anonymised, blocked stub keeps their codes' history. */
  anonymisedInviter: boolean;
}

export async function erasePersonalData(deps: PrivacyDeps, actor: AuditActor, input: { email: string }): Promise<Result<ErasureReceipt>> {
  const address = normalizedAddress(input.email);
  if (!address.ok) return address;
  const email = address.value;
  const reference = privacySubject(email, deps.secret);
  const at = deps.now.toISOString();
  // First, so that a Redis that cannot be reached stops the erasure before anything is deleted
  // (the admin tries again) rather than after the rows went, with the counts left behind.
  await forgetMailbox(deps.limiters, email, deps.secret);
  return deps.db.transaction().execute(async (trx): Promise<Result<ErasureReceipt>> => {
    const member = await trx.selectFrom('members').select(['id']).where('email', '=', email).executeTakeFirst();
    if (member) await lockRow(trx, 'members', member.id);
    const count = async (query: { executeTakeFirst(): Promise<{ n: number | string | bigint } | undefined> }) => Number((await query.executeTakeFirst())?.n ?? 0);
    const kept: Record<string, unknown>[] = [];
    const removed: Record<string, number> = {
      registrations: member ? 1 : 0,
      heldRegistrations: await count(trx.selectFrom('held_registrations').select((eb) => eb.fn.countAll().as('n')).where('email', '=', email)),
      waitingList: 0,
      applications: 0,
      consentRecords: 0,
      activationLinks: 0,
      emails: await count(trx.selectFrom('email_outbox').select((eb) => eb.fn.countAll().as('n')).where('recipient', '=', email)),
      lobbyLinks: await count(trx.selectFrom('lobby_links').select((eb) => eb.fn.countAll().as('n')).where('email', '=', email)),
    };
    const waitlist = await trx.selectFrom('waitlist_entries').select(['consent_at']).where('email', '=', email).executeTakeFirst();
    const application = await trx.selectFrom('membership_applications').select(['consent_at', 'country']).where('email', '=', email).executeTakeFirst();
    if (waitlist) {
      removed.waitingList = 1;
      kept.push({ kind: 'waiting-list', consentedAt: waitlist.consent_at });
    }
    if (application) {
      removed.applications = 1;
      kept.push({ kind: 'application', consentedAt: application.consent_at, country: application.country });
    }
    let anonymisedInviter = false;
    if (member) {
      const consents = await trx
        .selectFrom('consents')
        .select(['accepted_at', 'country', 'terms_pk_string', 'data_policy_pk_string', 'newsletter'])
        .where('member_id', '=', member.id)
        .execute();
      for (const c of consents) {
        kept.push({ kind: 'registration', acceptedAt: c.accepted_at, country: c.country, termsVersion: c.terms_pk_string, dataPolicyVersion: c.data_policy_pk_string, newsletter: c.newsletter });
      }
      removed.consentRecords = consents.length;
      removed.activationLinks = await count(trx.selectFrom('activations').select((eb) => eb.fn.countAll().as('n')).where('member_id', '=', member.id));
      const inviter = await trx.selectFrom('registration_codes').select('id').where('inviter_member_id', '=', member.id).limit(1).executeTakeFirst();
      if (inviter) {
        // Their codes refer to them: the row stays, emptied and blocked (their invitations stop working).
        anonymisedInviter = true;
        for (const table of ['consents', 'activations', 'welcome_vouchers', 'member_preferences', 'member_social_identities'] as const) {
          await trx.deleteFrom(table).where('member_id', '=', member.id).execute();
        }
        await trx
          .updateTable('members')
          .set({
            email: `erased-${member.id}@erased.invalid`,
            first_name: '',
            last_name: '',
            gender: null,
            country: null,
            language: null,
            newsletter: false,
            status: 'blocked',
            place_held_until: null,
          })
          .where('id', '=', member.id)
          .execute();
      } else {
        // Consents, links, voucher, preferences and social identities go with it (on delete cascade).
        await trx.deleteFrom('members').where('id', '=', member.id).execute();
      }
    }
    await trx.deleteFrom('held_registrations').where('email', '=', email).execute();
    // Their status links (ADR 063) go with the entry and the application.
    for (const [table, kind] of [['waitlist_entries', 'waitlist'], ['membership_applications', 'application']] as const) {
      const row = await trx.selectFrom(table).select('id').where('email', '=', email).executeTakeFirst();
      if (row) await dropStatusReferences(trx, kind, row.id);
    }
    await trx.deleteFrom('waitlist_entries').where('email', '=', email).execute();
    await trx.deleteFrom('membership_applications').where('email', '=', email).execute();
    await trx.deleteFrom('email_outbox').where('recipient', '=', email).execute();
    await trx.deleteFrom('lobby_links').where('email', '=', email).execute();
    // Its "manage my data" links (ADR 066) go too: nothing is left for them to show.
    await trx.deleteFrom('data_links').where('email', '=', email).execute();
    if (Object.values(removed).every((n) => n === 0)) return fail(NOTHING_FOUND);
    const erasureId = randomUUID();
    await trx
      .insertInto('privacy_erasures')
      .values({ id: erasureId, subject: reference, requested_at: at, admin_user_id: actor.adminId, removed: JSON.stringify(removed), kept: JSON.stringify(kept) })
      .execute();
    await recordAudit(
      trx,
      actor,
      { action: 'privacy.erased', target: reference, details: { erasureId, before: removed, after: { keptConsentProofs: kept.length, anonymisedInviter } } },
      deps.now,
    );
    return ok({ erasureId, reference, erasedAt: at, removed, keptConsentProofs: kept.length, anonymisedInviter });
  });
}
