/**
 * Declining applicants with a reason (issue 24 §1, ADR 063).
 *
 * - The reasons are the owner's texts, one per language (decline_reasons); the cool-down is one
 *   setting (application_settings). Both are audited.
 * - Declining ticked applicants (waitlist.manage): per applicant, one transaction locks and
 *   re-reads the application, keeps the decline without the address (its pseudonym, ADR 048),
 *   moves the application's status links onto the decline, deletes the application, queues the
 *   decline email (in the applicant's language, with the reason, a status link and the way on)
 *   and writes the audit record (who, when, the reason's id).
 * - Every decline, newest first, pages in the console (by the declined_at index, filtered by
 *   reason and day): the reason, who decided, when, the cool-down's end — never an address.
 * - During the cool-down the same address applying again is answered with the date it may apply
 *   again, and nothing is written (apply-for-membership.ts asks `reapplyAfter`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isLocale } from '@velvet/i18n/locales';
import { signLobbyToken } from '@velvet/tokens/signed-token';
import type { UserError } from '@velvet/validation/user-errors';
import { DECLINE_REASON_LANGUAGES, cooldownForm, declineReasonForm, declineSelectionForm, listSearch } from '@velvet/validation/waitlist';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import type { Database } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import { createLobbyLink } from '../domain/lobby-links.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { privacySubject } from '../domain/privacy-subject.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import { enqueueEmail, sealForOutbox } from '../mail/outbox.ts';
import { issueStatusReference, moveStatusReferences } from './application-status.ts';
import { decodeCursor, encodeCursor } from './waitlist-admission.ts';
import type { Page } from './waitlist-admission.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';

const DAY_MS = 86_400_000;
/** How long the decline email's "join the waiting list" link works. */
const DECLINE_LOBBY_LINK_DAYS = 30;

type ReasonLanguage = (typeof DECLINE_REASON_LANGUAGES)[number];
type ReasonTexts = Record<ReasonLanguage, string>;

export interface DeclineReason {
  id: string;
  position: number;
  texts: ReasonTexts;
  updatedAt: string;
}

interface DecisionDeps {
  db: Db;
  /** APP_SECRET: the pseudonym, the sealed status reference, the lobby link. */
  secret: string;
  now?: Date;
}

const refused = (code: UserError['code'], messageId: string, field: string | null = null): Result<never> => fail({ code, field, messageId });

const reasonOf = (row: { id: string; position: number; texts: string; updated_at: string }): DeclineReason => ({
  id: row.id,
  position: Number(row.position),
  texts: JSON.parse(row.texts) as ReasonTexts,
  updatedAt: row.updated_at,
});

export async function listDeclineReasons(db: Kysely<Database>): Promise<DeclineReason[]> {
  const rows = await db.selectFrom('decline_reasons').select(['id', 'position', 'texts', 'updated_at']).orderBy('position').orderBy('id').execute();
  return rows.map(reasonOf);
}

/** The owner's reason: a new one (no id) goes last; an existing one gets its new texts. */
export async function saveDeclineReason(deps: DecisionDeps, actor: AuditActor, raw: Record<string, unknown>): Promise<Result<DeclineReason>> {
  const parsed = declineReasonForm.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused('INVALID_FIELD', issue?.message ?? 'admin.decline.reason.textMissing', String(issue?.path[0] ?? 'texts'));
  }
  const now = deps.now ?? new Date();
  const at = now.toISOString();
  const texts = Object.fromEntries(DECLINE_REASON_LANGUAGES.map((language) => [language, parsed.data[language]])) as ReasonTexts;
  const id = parsed.data.id || randomUUID();
  const saved = await deps.db.transaction().execute(async (trx) => {
    if (parsed.data.id) {
      const before = await trx.selectFrom('decline_reasons').select('texts').where('id', '=', id).executeTakeFirst();
      if (!before) return false;
      await trx.updateTable('decline_reasons').set({ texts: JSON.stringify(texts), updated_at: at }).where('id', '=', id).execute();
      await recordAudit(trx, actor, { action: 'applicants.reason-saved', target: id, details: { before: JSON.parse(before.texts) as unknown, after: texts } }, now);
      return true;
    }
    const last = await trx.selectFrom('decline_reasons').select((eb) => eb.fn.max('position').as('p')).executeTakeFirst();
    await trx
      .insertInto('decline_reasons')
      .values({ id, position: Number(last?.p ?? 0) + 1, texts: JSON.stringify(texts), created_at: at, updated_at: at })
      .execute();
    await recordAudit(trx, actor, { action: 'applicants.reason-saved', target: id, details: { before: null, after: texts } }, now);
    return true;
  });
  if (!saved) return refused('REASON_NOT_FOUND', 'admin.decline.reason.notFound', 'id');
  const row = await deps.db.selectFrom('decline_reasons').select(['id', 'position', 'texts', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
  return ok(reasonOf(row));
}

export async function readCooldownDays(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('application_settings').select('cooldown_days').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.cooldown_days);
}

export async function setCooldownDays(deps: DecisionDeps, actor: AuditActor, rawDays: unknown): Promise<Result<number>> {
  const parsed = cooldownForm.safeParse({ days: rawDays });
  if (!parsed.success) return refused('INVALID_FIELD', parsed.error.issues[0]?.message ?? 'admin.decline.cooldown.invalid', 'days');
  const now = deps.now ?? new Date();
  await deps.db.transaction().execute(async (trx) => {
    const before = await readCooldownDays(trx);
    await trx.updateTable('application_settings').set({ cooldown_days: parsed.data.days, updated_at: now.toISOString() }).where('id', '=', 1).execute();
    await recordAudit(trx, actor, { action: 'applicants.cooldown-changed', target: null, details: { before: { days: before }, after: { days: parsed.data.days } } }, now);
  });
  return ok(parsed.data.days);
}

export interface DeclineResult {
  /** The addresses declined now (each was sent the decline email). */
  declined: string[];
  /** Per refused row: its id and why (nothing was sent to it). */
  userErrors: UserError[];
}

type DeclineRefusal = 'not-found' | 'already-invited';

/** Declines these applicants with one reason, one transaction and one audit record each. */
export async function declineApplicants(deps: DecisionDeps, actor: AuditActor, raw: { ids: unknown; reasonId: unknown }): Promise<Result<DeclineResult>> {
  const parsed = declineSelectionForm.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused('INVALID_FIELD', issue?.message ?? 'admin.waitlist.selection.empty', String(issue?.path[0] ?? 'ids'));
  }
  const now = deps.now ?? new Date();
  const reasonRow = await deps.db.selectFrom('decline_reasons').select(['id', 'position', 'texts', 'updated_at']).where('id', '=', parsed.data.reasonId).executeTakeFirst();
  if (!reasonRow) return refused('REASON_NOT_FOUND', 'admin.decline.reason.notFound', 'reasonId');
  const reason = reasonOf(reasonRow);
  const cooldownDays = await readCooldownDays(deps.db);
  const reapplyAfter = new Date(now.getTime() + cooldownDays * DAY_MS).toISOString();
  const result: DeclineResult = { declined: [], userErrors: [] };
  for (const id of new Set(parsed.data.ids)) {
    const outcome = await deps.db.transaction().execute(async (trx): Promise<{ ok: true; email: string } | { ok: false; reason: DeclineRefusal }> => {
      if (!(await lockRow(trx, 'membership_applications', id))) return { ok: false, reason: 'not-found' };
      const row = await trx
        .selectFrom('membership_applications')
        .select(['email', 'language', 'country', 'created_at', 'selected_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (row.selected_at !== null) return { ok: false, reason: 'already-invited' };
      const subject = privacySubject(row.email, deps.secret);
      const declineId = randomUUID();
      const at = now.toISOString();
      await trx
        .insertInto('application_declines')
        .values({
          id: declineId,
          subject,
          language: row.language,
          country: row.country,
          applied_at: row.created_at,
          declined_at: at,
          reason_id: reason.id,
          decided_by_admin_id: actor.adminId,
          decided_by_email: actor.email,
          reapply_after: reapplyAfter,
        })
        .execute();
      // The links of the "received" email now show the decision; the decline email gets its own.
      await moveStatusReferences(trx, { kind: 'application', id }, { kind: 'decline', id: declineId });
      await trx.deleteFrom('membership_applications').where('id', '=', id).execute();
      const language = isLocale(row.language) ? row.language : 'en';
      const sealedStatusReference = await issueStatusReference(trx, 'decline', declineId, deps.secret, now);
      const lobbyExpiresAt = new Date(now.getTime() + DECLINE_LOBBY_LINK_DAYS * DAY_MS);
      // The short link (ADR 060); the signed token too, for one release: a previous version's
      // outbox worker requires it in this payload and sends the row with it.
      const lobbyReference = await createLobbyLink(trx, row.email, lobbyExpiresAt, now);
      const lobbyToken = await signLobbyToken({ email: row.email }, deps.secret, DECLINE_LOBBY_LINK_DAYS * 86_400, now);
      await enqueueEmail(
        trx,
        {
          template: 'application-declined',
          recipient: row.email,
          locale: language,
          payload: {
            reason: reason.texts[language],
            reapplyAfter,
            sealedStatusReference,
            sealedLobbyReference: sealForOutbox(lobbyReference, deps.secret),
            sealedLobbyToken: sealForOutbox(lobbyToken, deps.secret),
            lobbyExpiresAt: lobbyExpiresAt.toISOString(),
          },
        },
        now,
      );
      await enqueueWebhookEvent(
        trx,
        { type: 'application.decided', data: { applicationId: id, decision: 'declined', reasonId: reason.id, country: row.country, language: row.language } },
        now,
      );
      await recordAudit(
        trx,
        actor,
        { action: 'applicants.declined', target: subject, details: { reasonId: reason.id, before: { status: 'open' }, after: { declinedAt: at, reapplyAfter } } },
        now,
      );
      return { ok: true, email: row.email };
    });
    if (outcome.ok) result.declined.push(outcome.email);
    else
      result.userErrors.push(
        outcome.reason === 'not-found'
          ? { code: 'ENTRY_NOT_FOUND', field: id, messageId: 'admin.waitlist.error.notFound' }
          : { code: 'ALREADY_INVITED', field: id, messageId: 'admin.waitlist.error.alreadyInvited' },
      );
  }
  return ok(result);
}

/** While a decline of this address is in its cool-down: the moment it may apply again; else null. */
export async function reapplyAfter(db: Kysely<Database>, email: string, secret: string, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('application_declines')
    .select((eb) => eb.fn.max('reapply_after').as('until'))
    .where('subject', '=', privacySubject(email, secret))
    .where('reapply_after', '>', now.toISOString())
    .executeTakeFirst();
  const until = row?.until as string | Date | null | undefined;
  if (!until) return null;
  return typeof until === 'string' ? new Date(until).toISOString() : until.toISOString();
}

export interface ApplicantHistoryEntry {
  kind: 'applied' | 'selected' | 'declined';
  at: string;
  reasonId: string | null;
  /** The reason in English (the console's reference text). */
  reason: string | null;
  decidedBy: string | null;
  reapplyAfter: string | null;
}

/** Everything the door holds about an address's applications, newest first: the open or selected one, and every decline (by the pseudonym). */
export async function applicantHistory(db: Kysely<Database>, email: string, secret: string): Promise<ApplicantHistoryEntry[]> {
  const address = email.trim().toLowerCase();
  const entries: ApplicantHistoryEntry[] = [];
  const open = await db.selectFrom('membership_applications').select(['created_at', 'selected_at']).where('email', '=', address).executeTakeFirst();
  const none = { reasonId: null, reason: null, decidedBy: null, reapplyAfter: null };
  if (open) {
    entries.push({ kind: 'applied', at: open.created_at, ...none });
    if (open.selected_at) entries.push({ kind: 'selected', at: open.selected_at, ...none });
  }
  const declines = await db
    .selectFrom('application_declines')
    .innerJoin('decline_reasons', 'decline_reasons.id', 'application_declines.reason_id')
    .select([
      'application_declines.applied_at',
      'application_declines.declined_at',
      'application_declines.reason_id',
      'application_declines.decided_by_email',
      'application_declines.reapply_after',
      'decline_reasons.texts',
    ])
    .where('application_declines.subject', '=', privacySubject(address, secret))
    .execute();
  for (const d of declines) {
    entries.push({ kind: 'applied', at: d.applied_at, ...none });
    entries.push({
      kind: 'declined',
      at: d.declined_at,
      reasonId: d.reason_id,
      reason: (JSON.parse(d.texts) as Partial<ReasonTexts>).en ?? null,
      decidedBy: d.decided_by_email,
      reapplyAfter: d.reapply_after,
    });
  }
  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

export interface DeclineRow {
  id: string;
  declinedAt: string;
  appliedAt: string;
  language: string;
  country: string | null;
  reasonId: string;
  /** The reason in English (the console's reference text). */
  reason: string | null;
  decidedBy: string | null;
  reapplyAfter: string;
}

export interface DeclineListRequest {
  reasonId?: string | null;
  /** YYYY-MM-DD (UTC): declined that day. */
  day?: string | null;
  first: number;
  after?: string | null;
}

/** Every decline kept, newest first, a page at a time (keyset on declined_at, id). No address: the decline has none. */
export async function listDeclinesPage(db: Kysely<Database>, request: DeclineListRequest): Promise<Page<DeclineRow>> {
  const { day } = listSearch({ day: request.day });
  let query = db
    .selectFrom('application_declines as d')
    .innerJoin('decline_reasons as r', 'r.id', 'd.reason_id')
    .select(['d.id', 'd.declined_at', 'd.applied_at', 'd.language', 'd.country', 'd.reason_id', 'd.decided_by_email', 'd.reapply_after', 'r.texts']);
  if (request.reasonId) query = query.where('d.reason_id', '=', request.reasonId);
  if (day) {
    const start = new Date(`${day}T00:00:00Z`);
    query = query.where('d.declined_at', '>=', start.toISOString()).where('d.declined_at', '<', new Date(start.getTime() + DAY_MS).toISOString());
  }
  const cursor = decodeCursor(request.after, 2);
  if (cursor) query = query.where(sql<boolean>`(d.declined_at, d.id) < (${cursor[0]!}, ${cursor[1]!})`);
  const rows = await query.orderBy('d.declined_at', 'desc').orderBy('d.id', 'desc').limit(request.first + 1).execute();
  const page = rows.slice(0, request.first);
  const last = page.at(-1);
  return {
    rows: page.map((d) => ({
      id: d.id,
      declinedAt: d.declined_at,
      appliedAt: d.applied_at,
      language: d.language,
      country: d.country,
      reasonId: d.reason_id,
      reason: (JSON.parse(d.texts) as Partial<ReasonTexts>).en ?? null,
      decidedBy: d.decided_by_email,
      reapplyAfter: d.reapply_after,
    })),
    nextCursor: rows.length > request.first && last ? encodeCursor([last.declined_at, last.id]) : null,
  };
}
