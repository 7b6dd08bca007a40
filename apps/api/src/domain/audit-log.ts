/**
 * The audit log (issue 13, ADR 045): every admin action, sign-in and failed sign-in, written in
 * the same transaction as the change it records, so a change without its record (or a record
 * without its change) cannot happen. Append-only: the database refuses UPDATE and DELETE, and an
 * INSERT that would replace an entry (SQLite's REPLACE, an upsert on either engine; migration 0015).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditAction } from '@velvet/validation/admin';
import type { Database } from '../db/schema.ts';


/** Who acted, from where: an admin session, or (a failed sign-in) only the address typed. */
export interface AuditActor {
  adminId: string | null;
  email: string | null;
  clientAddress: string | null;
}

export interface AuditEntry {
  id: string;
  at: string;
  actorEmail: string | null;
  clientAddress: string | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

/**
 * Whether `action` may name its target by an address: only those about an admin account (staff
 * accounts, not the people ADR 048 erases). Everyone else is named by their pseudonym
 * (domain/privacy-subject.ts): the log cannot be erased, so an address written here would outlive
 * the person's erasure.
 */
const targetMayBeAnAddress = (action: AuditAction) => action.startsWith('admin.');

export async function recordAudit(
  db: Kysely<Database>,
  actor: AuditActor,
  entry: { action: AuditAction; target?: string | null; details?: Record<string, unknown> },
  now: Date,
): Promise<void> {
  if (entry.target?.includes('@') && !targetMayBeAnAddress(entry.action)) {
    throw new Error(`audit log: ${entry.action} names a person by their pseudonym, never by an address (ADR 048)`);
  }
  await db
    .insertInto('audit_log')
    .values({
      id: randomUUID(),
      at: now.toISOString(),
      actor_admin_id: actor.adminId,
      // Bounded: a failed sign-in records what was typed, and that is anyone's input.
      actor_email: actor.email?.slice(0, 254) ?? null,
      client_address: actor.clientAddress?.slice(0, 64) ?? null,
      action: entry.action,
      target: entry.target?.slice(0, 254) ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

export interface AuditFilter {
  action?: string | null;
  /** Exact admin address. */
  actor?: string | null;
  /** Exact target (an address, a code, an admin). */
  target?: string | null;
}

/** One page, newest first; `after` is the cursor of the last entry of the page before. */
export async function listAudit(
  db: Kysely<Database>,
  filter: AuditFilter,
  page: { first: number; after?: string | null },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  let query = db.selectFrom('audit_log').select(['seq', 'id', 'at', 'actor_email', 'client_address', 'action', 'target', 'details']);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.actor) query = query.where('actor_email', '=', filter.actor.trim().toLowerCase());
  if (filter.target) query = query.where('target', '=', filter.target.trim());
  const cursor = decodeCursor(page.after);
  if (cursor !== null) query = query.where('seq', '<', cursor);
  const rows = await query.orderBy('seq', 'desc').limit(page.first + 1).execute();
  const entries = rows.slice(0, page.first).map((row) => ({
    id: row.id,
    at: row.at,
    actorEmail: row.actor_email,
    clientAddress: row.client_address,
    action: row.action,
    target: row.target,
    details: JSON.parse(row.details) as Record<string, unknown>,
  }));
  const last = rows[page.first - 1];
  return { entries, nextCursor: rows.length > page.first && last ? `a${Number(last.seq).toString(36)}` : null };
}

/** `a<seq in base 36>`; anything else is the first page. */
function decodeCursor(cursor: string | null | undefined): number | null {
  const match = /^a([0-9a-z]{1,12})$/.exec(cursor ?? '');
  return match?.[1] ? Number.parseInt(match[1], 36) : null;
}
