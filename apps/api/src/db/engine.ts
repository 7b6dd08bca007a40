import { PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';

export type DatabaseEngine = 'sqlite' | 'postgres';

/** Which engine a Kysely instance talks to (migrations branch on column types only). */
export function engineOf(db: Kysely<unknown>): DatabaseEngine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
