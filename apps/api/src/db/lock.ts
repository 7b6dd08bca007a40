/**
 * Row locks inside a transaction, the same meaning on both engines.
 *
 * - PostgreSQL: `SELECT … FOR UPDATE` locks the row until commit; a concurrent transaction
 *   locking the same row waits, then reads the committed state (READ COMMITTED).
 * - SQLite locks the whole database, not rows. Inside one process Kysely already runs one
 *   transaction at a time (the better-sqlite3 dialect has a single connection guarded by
 *   a mutex). Across processes (the CLI beside the server) every transaction begins with
 *   `BEGIN IMMEDIATE` (db/connect.ts), which takes the write lock at once: other writers wait
 *   (busy_timeout), and nothing another process commits can come between this transaction's
 *   reads and its writes. The row only has to exist. (A no-op `UPDATE … SET id = id` used to
 *   take the lock here; on a code it also made SQLite look up every member referring to it.)
 */
import type { Kysely, Transaction } from 'kysely';
import { engineOf } from './engine.ts';
import type { Database } from './schema.ts';

type LockableTable = 'registration_codes' | 'members' | 'email_outbox' | 'waitlist_entries' | 'membership_applications' | 'waitlist_releases';

/**
 * Locks row `id` of `table` for the rest of the transaction; false when there is no such row.
 * `FOR UPDATE` on PostgreSQL; on SQLite the transaction holds the lock already.
 */
export async function lockRow(trx: Transaction<Database>, table: LockableTable, id: string): Promise<boolean> {
  const query = trx.selectFrom(table).select('id').where('id', '=', id);
  const row = await (engineOf(trx as unknown as Kysely<unknown>) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row !== undefined;
}
