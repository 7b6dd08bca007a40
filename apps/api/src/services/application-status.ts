/**
 * The status link (issue 24 §1, ADR 063): every email an applicant or a waitlister gets carries
 * /status?ref=<22 characters>. The reference is random (128 bits) and stored only as its
 * SHA-256 in status_references, pointing at the application, the waiting-list entry or the
 * decline it stands for; the outbox row holds it sealed until the email is rendered.
 *
 * The page says where the person stands — received, on the list, invited, declined — with an
 * honest expected wait, and lets them withdraw an open application or leave the list.
 *
 * Expected wait (said in ADR 063): the people ahead (open applications that arrived earlier, or
 * waiting entries that joined earlier, plus the person) divided by the pace of the last 30 days
 * (selections and declines of applications, or invitations from the list, per day). Fewer than
 * MIN_DECISIONS in those 30 days is too little to go on: "we can't say yet" (null).
 */
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database, StatusKind } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { REFERENCE_PATTERN, hashToken, randomReference } from '../lib/tokens.ts';
import { sealForOutbox } from '../mail/outbox.ts';
import { createDataLink } from '../domain/data-links.ts';

const DAY_MS = 86_400_000;
/** The window the pace is measured over. */
const PACE_WINDOW_DAYS = 30;
/** Fewer decisions than this in the window: no estimate. */
const MIN_DECISIONS = 3;

/**
 * Inside the caller's transaction: a new status reference for `kind`/`targetId`; returns it
 * sealed for the outbox payload (the database keeps only its hash).
 */
export async function issueStatusReference(trx: Kysely<Database>, kind: StatusKind, targetId: string, secret: string, now: Date): Promise<string> {
  const reference = randomReference();
  await trx.insertInto('status_references').values({ hash: hashToken(reference), kind, target_id: targetId, created_at: now.toISOString() }).execute();
  return sealForOutbox(reference, secret);
}

/** Inside the caller's transaction: the links that pointed at one row now point at another (an application that became a decline). */
export async function moveStatusReferences(trx: Transaction<Database>, from: { kind: StatusKind; id: string }, to: { kind: StatusKind; id: string }): Promise<void> {
  await trx.updateTable('status_references').set({ kind: to.kind, target_id: to.id }).where('kind', '=', from.kind).where('target_id', '=', from.id).execute();
}

/** Inside the caller's transaction: the links of a row that is gone (left, withdrawn, erased). */
export async function dropStatusReferences(trx: Kysely<Database>, kind: StatusKind, targetId: string): Promise<void> {
  await trx.deleteFrom('status_references').where('kind', '=', kind).where('target_id', '=', targetId).execute();
}

type StandingState = 'RECEIVED' | 'WAITING' | 'INVITED' | 'DECLINED';

export interface Standing {
  state: StandingState;
  /** A waiting-list entry (else an application). */
  onWaitlist: boolean;
  /** The language of the person's emails. */
  language: string;
  /** When they applied or joined. */
  since: string;
  /** Invited or declined: when. */
  decidedAt: string | null;
  /** RECEIVED or WAITING: the expected wait in days, or null when there is too little to go on. */
  expectedWaitDays: number | null;
  /** DECLINED: the reason in the person's language, and when they may apply again. */
  reason: string | null;
  reapplyAfter: string | null;
  /** RECEIVED: the application can be withdrawn; WAITING: the entry can leave the list. */
  canWithdraw: boolean;
}

const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) => Number((await query.executeTakeFirstOrThrow()).n);

/** The expected wait in days for `ahead` people (the person included), at the pace of `decided` decisions in the window; null below MIN_DECISIONS. */
function expectedWaitDays(ahead: number, decided: number): number | null {
  if (decided < MIN_DECISIONS) return null;
  return Math.max(1, Math.ceil(ahead / (decided / PACE_WINDOW_DAYS)));
}

async function applicationWait(db: Kysely<Database>, row: { id: string; created_at: string }, now: Date): Promise<number | null> {
  const since = new Date(now.getTime() - PACE_WINDOW_DAYS * DAY_MS).toISOString();
  const at = now.toISOString();
  const ahead = await count(
    db
      .selectFrom('membership_applications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('selected_at', 'is', null)
      .where(sql<boolean>`(created_at, id) < (${row.created_at}, ${row.id})`),
  );
  const selected = await count(
    db.selectFrom('membership_applications').select((eb) => eb.fn.countAll<number>().as('n')).where('selected_at', '>=', since).where('selected_at', '<=', at),
  );
  const declined = await count(
    db.selectFrom('application_declines').select((eb) => eb.fn.countAll<number>().as('n')).where('declined_at', '>=', since).where('declined_at', '<=', at),
  );
  return expectedWaitDays(ahead + 1, selected + declined);
}

async function waitlistWait(db: Kysely<Database>, row: { id: string; joined_at: string }, now: Date): Promise<number | null> {
  const since = new Date(now.getTime() - PACE_WINDOW_DAYS * DAY_MS).toISOString();
  const ahead = await count(
    db
      .selectFrom('waitlist_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('invited_at', 'is', null)
      .where(sql<boolean>`(joined_at, id) < (${row.joined_at}, ${row.id})`),
  );
  const invited = await count(
    db.selectFrom('waitlist_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('invited_at', '>=', since).where('invited_at', '<=', now.toISOString()),
  );
  return expectedWaitDays(ahead + 1, invited);
}

/** What a status reference points at, or null (unknown, malformed, or its row is gone). */
async function findReference(db: Kysely<Database>, reference: string): Promise<{ kind: StatusKind; targetId: string } | null> {
  const ref = reference.trim();
  if (!REFERENCE_PATTERN.test(ref)) return null;
  const row = await db.selectFrom('status_references').select(['kind', 'target_id']).where('hash', '=', hashToken(ref)).executeTakeFirst();
  return row ? { kind: row.kind, targetId: row.target_id } : null;
}

const base = { onWaitlist: false, decidedAt: null, expectedWaitDays: null, reason: null, reapplyAfter: null, canWithdraw: false };

/** Query.applicationStatus: where the person of this reference stands; null for an unknown link. Writes nothing. */
export async function readStanding(db: Db, reference: string, now: Date = new Date()): Promise<Standing | null> {
  const found = await findReference(db, reference);
  if (!found) return null;
  if (found.kind === 'application') {
    const row = await db.selectFrom('membership_applications').select(['id', 'language', 'created_at', 'selected_at']).where('id', '=', found.targetId).executeTakeFirst();
    if (!row) return null;
    if (row.selected_at) return { ...base, state: 'INVITED', language: row.language, since: row.created_at, decidedAt: row.selected_at };
    return { ...base, state: 'RECEIVED', language: row.language, since: row.created_at, expectedWaitDays: await applicationWait(db, row, now), canWithdraw: true };
  }
  if (found.kind === 'waitlist') {
    const row = await db.selectFrom('waitlist_entries').select(['id', 'language', 'joined_at', 'invited_at']).where('id', '=', found.targetId).executeTakeFirst();
    if (!row) return null;
    if (row.invited_at) return { ...base, onWaitlist: true, state: 'INVITED', language: row.language, since: row.joined_at, decidedAt: row.invited_at };
    return { ...base, onWaitlist: true, state: 'WAITING', language: row.language, since: row.joined_at, expectedWaitDays: await waitlistWait(db, row, now), canWithdraw: true };
  }
  const row = await db
    .selectFrom('application_declines')
    .innerJoin('decline_reasons', 'decline_reasons.id', 'application_declines.reason_id')
    .select(['application_declines.language', 'application_declines.applied_at', 'application_declines.declined_at', 'application_declines.reapply_after', 'decline_reasons.texts'])
    .where('application_declines.id', '=', found.targetId)
    .executeTakeFirst();
  if (!row) return null;
  const texts = JSON.parse(row.texts) as Record<string, string>;
  return {
    ...base,
    state: 'DECLINED',
    language: row.language,
    since: row.applied_at,
    decidedAt: row.declined_at,
    reason: texts[row.language] ?? texts.en ?? null,
    reapplyAfter: row.reapply_after,
  };
}

export type WithdrawOutcome = 'WITHDRAWN' | 'LEFT' | 'NOT_FOUND' | 'NOTHING_TO_WITHDRAW';

/**
 * Mutation.withdrawByStatus: an open application is withdrawn, a waiting entry leaves the list —
 * the row and its links deleted in one transaction. An invitation or a decision is not undone here.
 */
export async function withdrawByStatus(deps: { db: Db; logger?: Logger }, reference: string): Promise<WithdrawOutcome> {
  const found = await findReference(deps.db, reference);
  if (!found) return 'NOT_FOUND';
  const outcome = await deps.db.transaction().execute(async (trx): Promise<WithdrawOutcome> => {
    if (found.kind === 'application') {
      const gone = await trx.deleteFrom('membership_applications').where('id', '=', found.targetId).where('selected_at', 'is', null).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) return 'NOTHING_TO_WITHDRAW';
      await dropStatusReferences(trx, 'application', found.targetId);
      return 'WITHDRAWN';
    }
    if (found.kind === 'waitlist') {
      const gone = await trx.deleteFrom('waitlist_entries').where('id', '=', found.targetId).where('invited_at', 'is', null).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) return 'NOTHING_TO_WITHDRAW';
      await dropStatusReferences(trx, 'waitlist', found.targetId);
      return 'LEFT';
    }
    return 'NOTHING_TO_WITHDRAW';
  });
  deps.logger?.info({ outcome }, 'status link: withdraw');
  return outcome;
}

/**
 * Mutation.dataLinkFromStatus (issue 24 §2, ADR 066): a "manage my data" link for the address of
 * an application's or a waiting-list entry's status link; null for an unknown one or a decline
 * (whose address is kept only hashed).
 */
export async function dataLinkFromStatus(db: Db, reference: string, now: Date): Promise<string | null> {
  const found = await findReference(db, reference);
  if (!found || found.kind === 'decline') return null;
  const table = found.kind === 'application' ? 'membership_applications' : 'waitlist_entries';
  const row = await db.selectFrom(table).select('email').where('id', '=', found.targetId).executeTakeFirst();
  if (!row) return null;
  return (await createDataLink(db, row.email, now)).reference;
}
