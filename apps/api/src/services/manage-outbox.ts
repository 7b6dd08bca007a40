/**
 * The outbox as operators see it (CLI `mail list`, `mail retry`; the admin console's outbox page,
 * ADR 049). No addresses: rows are named by id, and the worker's `last_error` has its addresses
 * replaced already (describeFailure).
 */
import type { UserError } from '@velvet/validation/user-errors';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database, OutboxStatus } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';

export interface OutboxSummary {
  id: string;
  template: string;
  status: OutboxStatus;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
}

const COLUMNS = ['id', 'template', 'status', 'attempts', 'created_at', 'next_attempt_at', 'sent_at', 'last_error'] as const;

function summary(r: { id: string; template: string; status: OutboxStatus; attempts: number; created_at: string; next_attempt_at: string; sent_at: string | null; last_error: string | null }): OutboxSummary {
  return {
    id: r.id,
    template: r.template,
    status: r.status,
    attempts: r.attempts,
    createdAt: r.created_at,
    nextAttemptAt: r.next_attempt_at,
    sentAt: r.sent_at,
    lastError: r.last_error,
  };
}

export async function listOutbox(db: Db, options: { limit?: number; status?: OutboxStatus } = {}): Promise<OutboxSummary[]> {
  return (await listOutboxPage(db, { status: options.status ?? null, first: options.limit ?? 100 })).rows;
}

/**
 * One page, newest first (created_at, then id, both descending), optionally of one status.
 * Keyset: `after` is the cursor of the page before, so every page is one index range read
 * (email_outbox_created_idx, or email_outbox_status_created_idx with a status).
 */
export async function listOutboxPage(
  db: Kysely<Database>,
  options: { status: OutboxStatus | null; first: number; after?: string | null },
): Promise<{ rows: OutboxSummary[]; nextCursor: string | null }> {
  let query = db.selectFrom('email_outbox').select([...COLUMNS]);
  if (options.status) query = query.where('status', '=', options.status);
  const cursor = decodeCursor(options.after);
  if (cursor) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(cursor.createdAt, cursor.id)));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.first + 1).execute();
  const page = rows.slice(0, options.first).map(summary);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > options.first && last ? encodeCursor(last) : null };
}

function encodeCursor(row: OutboxSummary): string {
  return Buffer.from(`${row.createdAt}|${row.id}`, 'utf8').toString('base64url');
}

/** Anything that is not a cursor of ours is the first page. */
function decodeCursor(cursor: string | null | undefined): { createdAt: string; id: string } | null {
  if (!cursor || cursor.length > 200) return null;
  const match = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\|([A-Za-z0-9-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match?.[1] && match[2] ? { createdAt: match[1], id: match[2] } : null;
}

type Refusal = { id: string; code: 'OUTBOX_NOT_FOUND' | 'OUTBOX_NOT_RETRYABLE'; why: string };

/**
 * Makes failed (or waiting) rows due now with a fresh count of attempts, all or none: a sent
 * row is refused (it would send the email again), as is one being sent right now or an unknown
 * id. With an actor, each row's change is audited in the same transaction.
 */
async function retryRows(db: Db, ids: readonly string[], now: Date, actor: AuditActor | null): Promise<{ ok: true; ids: string[] } | { ok: false; refusals: Refusal[] }> {
  const wanted = [...new Set(ids.map((id) => id.trim()))];
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('email_outbox').select(['id', 'status', 'attempts', 'template']).where('id', 'in', wanted).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const refusals: Refusal[] = [];
    for (const id of wanted) {
      const row = byId.get(id);
      if (!row) refusals.push({ id, code: 'OUTBOX_NOT_FOUND', why: `no outbox row ${id}` });
      else if (row.status === 'sent') refusals.push({ id, code: 'OUTBOX_NOT_RETRYABLE', why: `outbox row ${id} was already sent` });
      else if (row.status === 'sending') refusals.push({ id, code: 'OUTBOX_NOT_RETRYABLE', why: `outbox row ${id} is being sent right now` });
    }
    if (refusals.length > 0) return { ok: false as const, refusals };
    const result = await trx
      .updateTable('email_outbox')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now.toISOString(), locked_until: null })
      .where('id', 'in', wanted)
      .where('status', 'in', ['pending', 'failed'])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== wanted.length) {
      // The worker took one meanwhile: nothing of this retry stays.
      throw new RetryRaced();
    }
    if (actor) {
      for (const row of rows) {
        await recordAudit(
          trx,
          actor,
          {
            action: 'outbox.retried',
            target: row.id,
            details: { template: row.template, before: { status: row.status, attempts: row.attempts }, after: { status: 'pending', attempts: 0 } },
          },
          now,
        );
      }
    }
    return { ok: true as const, ids: wanted };
  }).catch((error: unknown) => {
    if (error instanceof RetryRaced) return { ok: false as const, refusals: wanted.map((id) => ({ id, code: 'OUTBOX_NOT_RETRYABLE' as const, why: `outbox row ${id} changed meanwhile; try again` })) };
    throw error;
  });
}

class RetryRaced extends Error {}

/** CLI `mail retry --id`. */
export async function retryOutboxRow(db: Db, id: string, now: Date = new Date()): Promise<Result<{ id: string }, string>> {
  const outcome = await retryRows(db, [id], now, null);
  return outcome.ok ? ok({ id: id.trim() }) : fail(...outcome.refusals.map((r) => r.why));
}

/** The console's retry of one or many rows (permission outbox.manage), audited row by row. */
export async function retryOutboxRows(db: Db, actor: AuditActor, ids: readonly string[], now: Date): Promise<{ retried: string[]; userErrors: UserError[] }> {
  const outcome = await retryRows(db, ids, now, actor);
  if (outcome.ok) return { retried: outcome.ids, userErrors: [] };
  const codes = [...new Set(outcome.refusals.map((r) => r.code))];
  return {
    retried: [],
    userErrors: codes.map((code) => ({ code, field: 'ids', messageId: code === 'OUTBOX_NOT_FOUND' ? 'admin.outbox.error.notFound' : 'admin.outbox.error.notRetryable' })),
  };
}
