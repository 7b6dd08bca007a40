/**
 * The waiting list and applicants in the admin console (issue 13, ADR 047).
 *
 * - Lists page on the server with keyset cursors: by arrival (first come first served) through
 *   the (joined_at, id) indexes — a partial one per status — or, searching an address or its
 *   beginning, by address through the unique index on email (a range, never a scan).
 * - Ticked rows are invited (or applicants selected) one transaction each, with the personal
 *   code, the outbox row and the audit record (services/personal-invitations.ts, as the CLI).
 * - "Invite the next N" is a release row, worked off in chunks: each chunk is one transaction
 *   that locks the release, invites the next entries (each re-read under its own lock) and adds
 *   them to the release's progress. A reload shows the progress; a restart or a second instance
 *   picks up where the last committed chunk ended; nobody is invited twice.
 * - The daily capacity: a job in every instance locks the capacity row, counts the waiting-list
 *   invitations of the current UTC day and invites the earliest entries up to the capacity, in
 *   the same transaction — instances take turns on the lock and each counts what the others did.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { UserError } from '@velvet/validation/user-errors';
import { admissionCapacityForm, invitationSelectionForm, listSearch, waitlistReleaseForm } from '@velvet/validation/waitlist';
import type { Db } from '../db/connect.ts';
import { engineOf } from '../db/engine.ts';
import { lockRow } from '../db/lock.ts';
import type { Database } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { privacySubject } from '../domain/privacy-subject.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import { ensureSystemInviter, inviteWaitlistEntry, selectApplication, uninvitedCandidates, withFreshCode } from './personal-invitations.ts';
import type { EntryRefusal } from './personal-invitations.ts';

/** The time zone of "today" for the daily capacity, said on the page. */
const ADMISSION_TIME_ZONE = 'UTC';
/** People invited per transaction of a release or of the capacity job. */
const RELEASE_CHUNK = 50;
const DAY_MS = 86_400_000;
/** Above every character: `prefix … prefix + MAX` is the range of addresses beginning with prefix. */
const MAX_CHAR = '\u{10FFFF}';

/**
 * What inviting needs besides the database: APP_SECRET, for the pseudonym the audit log names an
 * invited person by (ADR 048) — the log is append-only, so an address written there could never
 * be erased.
 */
interface AdmissionDeps {
  db: Db;
  secret: string;
}

const refused = (code: UserError['code'], messageId: string, field: string | null = null): Result<never> => fail({ code, field, messageId });

// ---------------------------------------------------------------------------------------------
// Lists

export interface ListRequest {
  status: string;
  search?: string | null;
  day?: string | null;
  first: number;
  after?: string | null;
}

export interface WaitlistRow {
  id: string;
  email: string;
  language: string;
  joinedAt: string;
  invitedAt: string | null;
  isMember: boolean;
}

export interface ApplicantRow {
  id: string;
  email: string;
  language: string;
  country: string | null;
  appliedAt: string;
  selectedAt: string | null;
  isMember: boolean;
}

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

/** A list's keyset cursor (its sort key's values), opaque to the client; the declines list pages with it too. */
export const encodeCursor = (parts: string[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
export function decodeCursor(cursor: string | null | undefined, length: number): string[] | null {
  if (!cursor || cursor.length > 600) return null;
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    return Array.isArray(parts) && parts.length === length && parts.every((p) => typeof p === 'string') ? (parts as string[]) : null;
  } catch {
    return null;
  }
}

interface ListTable {
  table: 'waitlist_entries' | 'membership_applications';
  arrival: 'joined_at' | 'created_at';
  done: 'invited_at' | 'selected_at';
  /** Status values: [only not done, only done]. */
  statuses: [string, string];
}

const WAITLIST: ListTable = { table: 'waitlist_entries', arrival: 'joined_at', done: 'invited_at', statuses: ['waiting', 'invited'] };
const APPLICANTS: ListTable = { table: 'membership_applications', arrival: 'created_at', done: 'selected_at', statuses: ['open', 'selected'] };

/** Either list seen through its common columns (arrival and done are named per table). */
interface ListDb {
  list: { id: string; email: string; language: string };
  members: Database['members'];
}

/** One page of either list, with whether an active member has each address. */
async function listPage(db: Kysely<Database>, spec: ListTable, request: ListRequest) {
  const { prefix, day } = listSearch(request);
  const arrival = sql.ref<string>(`list.${spec.arrival}`);
  const done = sql.ref<string | null>(`list.${spec.done}`);
  // Whether an active member has the address: one index probe per row of the page. (A join let
  // PostgreSQL merge the whole members index up to the searched prefix: 1 s at a million members.)
  const isMember = sql<boolean | number>`exists (select 1 from members where members.email = list.email and members.status = 'active')`;
  let query = (db as unknown as Kysely<ListDb>)
    .selectFrom(`${spec.table} as list` as 'list')
    .select(['list.id', 'list.email', 'list.language', sql<string>`${arrival}`.as('arrival'), sql<string | null>`${done}`.as('done'), isMember.as('isMember')]);
  if (request.status === spec.statuses[0]) query = query.where(sql<boolean>`${done} is null`);
  if (request.status === spec.statuses[1]) query = query.where(sql<boolean>`${done} is not null`);
  if (day) {
    const start = new Date(`${day}T00:00:00Z`);
    query = query.where(sql<boolean>`${arrival} >= ${start.toISOString()} and ${arrival} < ${new Date(start.getTime() + DAY_MS).toISOString()}`);
  }
  if (prefix) {
    // By address: the unique index on email, as a range.
    query = query.where('list.email', '>=', prefix).where('list.email', '<', prefix + MAX_CHAR);
    const cursor = decodeCursor(request.after, 1);
    if (cursor) query = query.where('list.email', '>', cursor[0]!);
    query = query.orderBy('list.email');
  } else {
    const cursor = decodeCursor(request.after, 2);
    if (cursor) query = query.where(sql<boolean>`(${arrival}, list.id) > (${cursor[0]!}, ${cursor[1]!})`);
    query = query.orderBy(arrival).orderBy('list.id');
  }
  const rows = await query.limit(request.first + 1).execute();
  const page = rows.slice(0, request.first);
  const last = page.at(-1);
  const nextCursor = rows.length > request.first && last ? encodeCursor(prefix ? [last.email] : [last.arrival, last.id]) : null;
  return { page, nextCursor };
}

export async function listWaitlistPage(db: Kysely<Database>, request: ListRequest): Promise<Page<WaitlistRow>> {
  const { page, nextCursor } = await listPage(db, WAITLIST, request);
  return {
    rows: page.map((r) => ({ id: r.id, email: r.email, language: r.language, joinedAt: r.arrival, invitedAt: r.done, isMember: Boolean(r.isMember) })),
    nextCursor,
  };
}

export async function listApplicantsPage(db: Kysely<Database>, request: ListRequest): Promise<Page<ApplicantRow>> {
  const { page, nextCursor } = await listPage(db, APPLICANTS, request);
  const countries = new Map(
    page.length === 0
      ? []
      : (
          await db
            .selectFrom('membership_applications')
            .select(['id', 'country'])
            .where(
              'id',
              'in',
              page.map((r) => r.id),
            )
            .execute()
        ).map((r) => [r.id, r.country]),
  );
  return {
    rows: page.map((r) => ({
      id: r.id,
      email: r.email,
      language: r.language,
      country: countries.get(r.id) ?? null,
      appliedAt: r.arrival,
      selectedAt: r.done,
      isMember: Boolean(r.isMember),
    })),
    nextCursor,
  };
}

// ---------------------------------------------------------------------------------------------
// Inviting ticked rows

export interface SelectionResult {
  invited: string[];
  /** Per refused row: its id and why (nothing was sent to it). */
  userErrors: UserError[];
}

const REFUSALS: Record<EntryRefusal, UserError['code']> = { 'not-found': 'ENTRY_NOT_FOUND', 'already-invited': 'ALREADY_INVITED', member: 'ALREADY_MEMBER' };
const REFUSAL_MESSAGES: Record<EntryRefusal, string> = {
  'not-found': 'admin.waitlist.error.notFound',
  'already-invited': 'admin.waitlist.error.alreadyInvited',
  member: 'admin.waitlist.error.member',
};

/** Invites these waiting-list entries (or selects these applicants), one transaction and one audit record each. */
export async function inviteSelected(
  deps: AdmissionDeps & { now?: Date },
  actor: AuditActor,
  list: 'waitlist' | 'applicants',
  rawIds: unknown,
): Promise<Result<SelectionResult>> {
  const parsed = invitationSelectionForm.safeParse({ ids: rawIds });
  if (!parsed.success) return refused('INVALID_FIELD', parsed.error.issues[0]?.message ?? 'admin.waitlist.selection.empty', 'ids');
  const now = deps.now ?? new Date();
  const inviterId = await ensureSystemInviter(deps.db, now);
  const result: SelectionResult = { invited: [], userErrors: [] };
  for (const id of new Set(parsed.data.ids)) {
    const outcome = await withFreshCode(deps.db, async (trx) => {
      if (list === 'waitlist') await lockAdmission(trx);
      const done = list === 'waitlist' ? await inviteWaitlistEntry(trx, id, inviterId, now, deps.secret) : await selectApplication(trx, id, inviterId, now, deps.secret);
      if (done.ok) {
        const at = now.toISOString();
        const target = privacySubject(done.invitation.email, deps.secret);
        await recordAudit(
          trx,
          actor,
          list === 'waitlist'
            ? { action: 'waitlist.invited', target, details: { before: { invitedAt: null }, after: { invitedAt: at } } }
            : { action: 'applicants.selected', target, details: { before: { selectedAt: null }, after: { selectedAt: at } } },
          now,
        );
      }
      return done;
    });
    if (outcome.ok) result.invited.push(outcome.invitation.email);
    else result.userErrors.push({ code: REFUSALS[outcome.reason], field: id, messageId: REFUSAL_MESSAGES[outcome.reason] });
  }
  return ok(result);
}

// ---------------------------------------------------------------------------------------------
// Batch releases

export interface Release {
  id: string;
  kind: 'batch' | 'capacity';
  requested: number;
  invited: number;
  status: 'running' | 'done';
  actorEmail: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const RELEASE_COLUMNS = ['id', 'kind', 'requested', 'invited', 'status', 'actor_email', 'created_at', 'finished_at'] as const;
type ReleaseRow = Omit<Pick<Database['waitlist_releases'], (typeof RELEASE_COLUMNS)[number]>, 'invited'> & { invited: number };
const releaseOf = (r: ReleaseRow): Release => ({
  id: r.id,
  kind: r.kind,
  requested: Number(r.requested),
  invited: Number(r.invited),
  status: r.status,
  actorEmail: r.actor_email,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});

/** "Invite the next N": records the release (and its audit entry); the chunks follow (workReleases). */
export async function startRelease(deps: { db: Db; now?: Date }, actor: AuditActor, rawCount: unknown): Promise<Result<Release>> {
  const parsed = waitlistReleaseForm.safeParse({ count: rawCount });
  if (!parsed.success) return refused('INVALID_FIELD', parsed.error.issues[0]?.message ?? 'admin.waitlist.release.countInvalid', 'count');
  const now = deps.now ?? new Date();
  if ((await uninvitedCandidates(deps.db, 1)).length === 0) return refused('NOBODY_WAITING', 'admin.waitlist.release.nobody');
  const id = randomUUID();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('waitlist_releases')
      .values({
        id,
        kind: 'batch',
        requested: parsed.data.count,
        status: 'running',
        actor_admin_id: actor.adminId,
        actor_email: actor.email,
        client_address: actor.clientAddress,
        created_at: now.toISOString(),
        finished_at: null,
      })
      .execute();
    await recordAudit(trx, actor, { action: 'waitlist.release-started', target: id, details: { before: null, after: { requested: parsed.data.count } } }, now);
  });
  const release = await readRelease(deps.db, id);
  if (!release) throw new Error('the release just written is gone');
  return ok(release);
}

export async function readRelease(db: Kysely<Database>, id: string): Promise<Release | null> {
  const row = await db.selectFrom('waitlist_releases').select(RELEASE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? releaseOf(row) : null;
}

/** The releases still running, and the latest finished ones (newest first, a few). */
export async function recentReleases(db: Kysely<Database>): Promise<Release[]> {
  const running = await db.selectFrom('waitlist_releases').select(RELEASE_COLUMNS).where('status', '=', 'running').orderBy('created_at').limit(20).execute();
  const done = await db.selectFrom('waitlist_releases').select(RELEASE_COLUMNS).where('status', '=', 'done').orderBy('created_at', 'desc').limit(5).execute();
  return [...running, ...done].map(releaseOf);
}

/** Invites up to `room` of the earliest waiting entries inside `trx`; audits each under `actor`, naming the person by their pseudonym. */
async function inviteNext(
  trx: Transaction<Database>,
  actor: AuditActor,
  room: number,
  now: Date,
  audit: { action: 'waitlist.invited' | 'waitlist.admitted'; releaseId: string | null; secret: string },
) {
  const inviterId = await ensureSystemInviter(trx, now);
  const candidates = await uninvitedCandidates(trx, room);
  let invited = 0;
  for (const { id } of candidates) {
    const done = await inviteWaitlistEntry(trx, id, inviterId, now, audit.secret);
    if (!done.ok) continue;
    invited++;
    await recordAudit(
      trx,
      actor,
      { action: audit.action, target: privacySubject(done.invitation.email, audit.secret), details: { before: { invitedAt: null }, after: { invitedAt: now.toISOString(), release: audit.releaseId } } },
      now,
    );
  }
  return { invited, exhausted: candidates.length < room };
}

/** One chunk of release `id` in one transaction: 'more' to go, or 'done'. */
export async function workReleaseChunk(deps: AdmissionDeps, id: string, now: Date = new Date(), chunk = RELEASE_CHUNK): Promise<'more' | 'done'> {
  return withFreshCode(deps.db, async (trx) => {
    await lockAdmission(trx);
    if (!(await lockRow(trx, 'waitlist_releases', id))) return 'done';
    const release = await trx
      .selectFrom('waitlist_releases')
      .select(['requested', 'invited', 'status', 'actor_admin_id', 'actor_email', 'client_address'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (release.status !== 'running') return 'done';
    const room = Math.min(chunk, Number(release.requested) - Number(release.invited));
    const actor: AuditActor = { adminId: release.actor_admin_id, email: release.actor_email, clientAddress: release.client_address };
    const step = room > 0 ? await inviteNext(trx, actor, room, now, { action: 'waitlist.invited', releaseId: id, secret: deps.secret }) : { invited: 0, exhausted: true };
    const invited = Number(release.invited) + step.invited;
    const finished = invited >= Number(release.requested) || step.exhausted;
    await trx
      .updateTable('waitlist_releases')
      .set({ invited, status: finished ? 'done' : 'running', finished_at: finished ? now.toISOString() : null })
      .where('id', '=', id)
      .execute();
    return finished ? 'done' : 'more';
  });
}

/** Works every running release to its end (resumes those a restart interrupted). */
export async function workReleases(deps: AdmissionDeps, now: () => Date = () => new Date()): Promise<number> {
  const running = await deps.db.selectFrom('waitlist_releases').select('id').where('status', '=', 'running').orderBy('created_at').execute();
  for (const { id } of running) {
    while ((await workReleaseChunk(deps, id, now())) === 'more') {
      // next chunk
    }
  }
  return running.length;
}

// ---------------------------------------------------------------------------------------------
// Daily admission capacity

const dayBounds = (now: Date) => {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS).toISOString() };
};

/** Waiting-list invitations of the current UTC day (manual, batch and automatic alike). */
async function admittedToday(db: Kysely<Database>, now: Date): Promise<number> {
  const { start, end } = dayBounds(now);
  const row = await db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('invited_at', '>=', start)
    .where('invited_at', '<', end)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface Admission {
  dailyLimit: number;
  admittedToday: number;
  timeZone: string;
  updatedAt: string;
}

export async function readAdmission(db: Kysely<Database>, now: Date = new Date()): Promise<Admission> {
  const row = await db.selectFrom('admission_capacity').select(['daily_limit', 'updated_at']).where('id', '=', 1).executeTakeFirstOrThrow();
  return { dailyLimit: Number(row.daily_limit), admittedToday: await admittedToday(db, now), timeZone: ADMISSION_TIME_ZONE, updatedAt: row.updated_at };
}

export async function setCapacity(deps: { db: Db; now?: Date }, actor: AuditActor, rawLimit: unknown): Promise<Result<Admission>> {
  const parsed = admissionCapacityForm.safeParse({ dailyLimit: rawLimit });
  if (!parsed.success) return refused('INVALID_FIELD', parsed.error.issues[0]?.message ?? 'admin.waitlist.capacity.invalid', 'dailyLimit');
  const now = deps.now ?? new Date();
  await deps.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('admission_capacity').select('daily_limit').where('id', '=', 1).executeTakeFirstOrThrow();
    await trx.updateTable('admission_capacity').set({ daily_limit: parsed.data.dailyLimit, updated_at: now.toISOString() }).where('id', '=', 1).execute();
    await recordAudit(
      trx,
      actor,
      { action: 'waitlist.capacity-changed', target: null, details: { before: { dailyLimit: Number(before.daily_limit) }, after: { dailyLimit: parsed.data.dailyLimit } } },
      now,
    );
  });
  return ok(await readAdmission(deps.db, now));
}

/**
 * Every transaction that invites from the waiting list takes this lock first (then the release,
 * then the entries): the capacity job's count of today's invitations then includes everything
 * committed, and no release chunk is half-way while it counts. PostgreSQL: the capacity row FOR
 * UPDATE; SQLite: BEGIN IMMEDIATE holds the whole file already.
 */
async function lockAdmission(trx: Transaction<Database>): Promise<void> {
  if (engineOf(trx as unknown as Kysely<unknown>) === 'postgres') {
    await trx.selectFrom('admission_capacity').select('id').where('id', '=', 1).forUpdate().execute();
  }
}

const SYSTEM_ACTOR: AuditActor = { adminId: null, email: null, clientAddress: null };

/**
 * One chunk of the day's admission: with the capacity row locked (every instance takes its
 * turn), counts today's invitations and invites the earliest entries up to the capacity.
 * Returns how many were invited and whether room is left for another chunk.
 */
async function admitChunk(deps: AdmissionDeps, now: Date, chunk: number): Promise<{ invited: number; more: boolean }> {
  return withFreshCode(deps.db, async (trx) => {
    await lockAdmission(trx);
    const { daily_limit } = await trx.selectFrom('admission_capacity').select('daily_limit').where('id', '=', 1).executeTakeFirstOrThrow();
    const room = Math.min(chunk, Number(daily_limit) - (await admittedToday(trx, now)));
    if (room <= 0) return { invited: 0, more: false };
    const step = await inviteNext(trx, SYSTEM_ACTOR, room, now, { action: 'waitlist.admitted', releaseId: null, secret: deps.secret });
    return { invited: step.invited, more: !step.exhausted && step.invited > 0 };
  });
}

/** Admits from the waiting list up to today's capacity; returns how many this call invited. */
export async function admitWithinCapacity(deps: AdmissionDeps, now: Date = new Date(), chunk = RELEASE_CHUNK): Promise<number> {
  let total = 0;
  for (;;) {
    const step = await admitChunk(deps, now, chunk);
    total += step.invited;
    if (!step.more) return total;
  }
}
