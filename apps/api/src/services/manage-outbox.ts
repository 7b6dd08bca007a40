/** The outbox as operators see it (CLI `mail list`, `mail retry`). No addresses: rows are named by id. */
import type { Db } from '../db/connect.ts';
import type { OutboxStatus } from '../db/schema.ts';
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

export async function listOutbox(db: Db, options: { limit?: number; status?: OutboxStatus } = {}): Promise<OutboxSummary[]> {
  let query = db
    .selectFrom('email_outbox')
    .select(['id', 'template', 'status', 'attempts', 'created_at', 'next_attempt_at', 'sent_at', 'last_error'])
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(options.limit ?? 100);
  if (options.status) query = query.where('status', '=', options.status);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    template: r.template,
    status: r.status,
    attempts: r.attempts,
    createdAt: r.created_at,
    nextAttemptAt: r.next_attempt_at,
    sentAt: r.sent_at,
    lastError: r.last_error,
  }));
}

/**
 * Makes a failed (or waiting) row due now with a fresh count of attempts. A sent row is
 * refused (it would send the email again), as is one being sent right now.
 */
export async function retryOutboxRow(db: Db, id: string, now: Date = new Date()): Promise<Result<{ id: string }>> {
  const row = await db.selectFrom('email_outbox').select(['status']).where('id', '=', id.trim()).executeTakeFirst();
  if (!row) return fail(`no outbox row ${id}`);
  if (row.status === 'sent') return fail(`outbox row ${id} was already sent`);
  if (row.status === 'sending') return fail(`outbox row ${id} is being sent right now`);
  const result = await db
    .updateTable('email_outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now.toISOString(), locked_until: null })
    .where('id', '=', id.trim())
    .where('status', 'in', ['pending', 'failed'])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return fail(`outbox row ${id} changed meanwhile; try again`);
  return ok({ id: id.trim() });
}
