/**
 * Row locks inside a transaction, the same meaning on both engines.
 *
 * - PostgreSQL: `SELECT … FOR UPDATE` locks the row until commit; a concurrent transaction
 *   locking the same row waits, then reads the committed state (READ COMMITTED).
 * - SQLite locks the whole database, not rows. Inside one process Kysely already runs one
 *   transaction at a time (the better-sqlite3 dialect has a single connection guarded by
 *   a mutex). Across processes (the CLI beside the server) a `BEGIN` (deferred) transaction
 *   that reads and then writes can fail with SQLITE_BUSY_SNAPSHOT when another writer
 *   committed in between; starting with a write (a no-op UPDATE) takes the write lock at
 *   once, which is what `BEGIN IMMEDIATE` would do. Other writers then wait (busy_timeout).
 */
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { engineOf } from './engine.ts';
import type { Database } from './schema.ts';

type LockableTable = 'registration_codes' | 'members' | 'email_outbox' | 'waitlist_entries' | 'membership_applications';

/** Locks row `id` of `table` for the rest of the transaction; false when there is no such row. */
export async function lockRow(trx: Transaction<Database>, table: LockableTable, id: string): Promise<boolean> {
  if (engineOf(trx as unknown as Kysely<unknown>) === 'postgres') {
    const row = await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    return row !== undefined;
  }
  const result = await sql`update ${sql.table(table)} set id = id where id = ${id}`.execute(trx);
  return Number(result.numAffectedRows ?? 0) === 1;
}
