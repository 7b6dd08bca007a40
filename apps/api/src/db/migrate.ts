import { PostgresAdapter, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { MigrationResult } from 'kysely/migration';
import type { Db } from './connect.ts';
import { migrationsFor } from './migrations/registry.ts';
import type { MigrationContext } from './migrations/registry.ts';

export interface MigrateOutcome {
  /** Names of the migrations applied by this call (empty when already up to date). */
  applied: string[];
}

/**
 * On PostgreSQL the migration tables live in the connection's own schema. Named
 * explicitly, because Kysely otherwise looks for its lock table in every schema and,
 * finding another schema's, skips creating its own (seen with parallel test schemas).
 */
async function migrator(db: Db, context: MigrationContext = {}): Promise<Migrator> {
  const provider = { getMigrations: async () => migrationsFor(context) };
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return new Migrator({ db, provider });
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return new Migrator({ db, provider, migrationTableSchema: rows[0]?.schema ?? 'public' });
}

/**
 * Brings the schema to the newest version. Safe to run on every start; a no-op when current.
 * `secret` (APP_SECRET): 0015 turns addresses in older audit entries into pseudonyms with it, and
 * refuses to run without it when there are any (a fresh database needs none).
 */
export async function migrateToLatest(db: Db, context: MigrationContext = {}): Promise<MigrateOutcome> {
  const { error, results } = await (await migrator(db, context)).migrateToLatest();
  return finish(error, results);
}

/**
 * The migrations this version knows that the database has not applied: what a process started
 * with MIGRATE_ON_START=false refuses to run without (ADR 062). Migrations the database has and
 * this version does not know (a newer version migrated it: expand, then contract) are no reason.
 */
export async function pendingMigrations(db: Db, context: MigrationContext = {}): Promise<string[]> {
  const migrations = await (await migrator(db, context)).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Undoes the newest migration (used by tests and by hand, never at start-up). */
export async function migrateDown(db: Db): Promise<MigrateOutcome> {
  const { error, results } = await (await migrator(db)).migrateDown();
  return finish(error, results);
}

function finish(error: unknown, results: MigrationResult[] | undefined): MigrateOutcome {
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error ?? 'unknown'));
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${cause.message}`.replace('  ', ' '), { cause });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
