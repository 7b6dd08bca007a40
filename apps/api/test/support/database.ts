/**
 * Real databases for tests: a migrated SQLite file under the OS temp directory, or a
 * fresh schema in the PostgreSQL test database (postgres://postgres@127.0.0.1:5432/test,
 * override with TEST_DATABASE_URL). Each call gets its own; close() removes it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase } from '../../src/db/connect.ts';
import type { DatabaseConnection, DatabaseEngine, Db } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const ENGINES: DatabaseEngine[] = ['sqlite', 'postgres'];
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  engine: DatabaseEngine;
  db: Db;
  /** A DATABASE_URL that reaches the same database (SQLite only: PostgreSQL needs the schema too). */
  url: string;
  /** How many connections `db` holds at most (SQLite: one, so its transactions run one after another). */
  connections: number;
  /** Another, independent connection (pool) to the same database, as a second API instance would have. */
  connectAgain(): DatabaseConnection;
  close(): Promise<void>;
}

export async function createTestDatabase(engine: DatabaseEngine, options: { migrate?: boolean; poolSize?: number } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  const poolSize = options.poolSize ?? 4;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'velvet-api-db-'));
    const url = `file:${path.join(dir, 'test.sqlite')}`;
    const connection = connectDatabase(url);
    if (migrate) await migrateToLatest(connection.db);
    return {
      engine,
      db: connection.db,
      url,
      connections: 1,
      connectAgain: () => connectDatabase(url),
      async close() {
        await connection.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const connection = connectDatabase(POSTGRES_URL, { postgresSchema: schema, poolSize });
  if (migrate) await migrateToLatest(connection.db);
  return {
    engine,
    db: connection.db,
    url: POSTGRES_URL,
    connections: poolSize,
    connectAgain: () => connectDatabase(POSTGRES_URL, { postgresSchema: schema, poolSize: 4 }),
    async close() {
      await connection.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

/**
 * Deletes every row a test may have created (legal documents are reference data and stay). The
 * audit log stays too: the database refuses to delete from it, so tests find their own entries
 * by the unique addresses they used.
 */
export async function deleteAllData(db: Db): Promise<void> {
  await db.deleteFrom('webhook_deliveries').execute();
  await db.deleteFrom('webhook_endpoints').execute();
  await db.deleteFrom('privacy_erasures').execute();
  await db.deleteFrom('consent_records').execute();
  await db.deleteFrom('funnel_events').execute();
  await db.deleteFrom('waitlist_entries').execute();
  await db.deleteFrom('waitlist_releases').execute();
  await db.updateTable('admission_capacity').set({ daily_limit: 0 }).execute();
  await db.deleteFrom('membership_applications').execute();
  await db.deleteFrom('member_preferences').execute();
  await db.deleteFrom('member_social_identities').execute();
  await db.deleteFrom('welcome_vouchers').execute();
  await db.deleteFrom('activations').execute();
  await db.deleteFrom('admin_sessions').execute();
  await db.deleteFrom('consents').execute();
  await db.deleteFrom('email_outbox').execute();
  await db.deleteFrom('admin_users').execute();
  await db.updateTable('admin_security_policy').set({ require_second_factor: false }).execute();
  await db.deleteFrom('code_signal_counts').execute();
  await db.deleteFrom('code_signal_sources').execute();
  await db.deleteFrom('code_signal_networks').execute();
  await db.deleteFrom('held_registrations').execute();
  await db.updateTable('members').set({ registration_code_id: null }).execute();
  await db.deleteFrom('registration_codes').execute();
  await db.deleteFrom('members').execute();
}
