/**
 * Registration and activation (issue 3): activation links (only their SHA-256 hash is
 * stored), welcome vouchers, and admin sessions. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const registrationMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';

    await db.schema
      .createTable('activations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .addColumn('used_at', timestamp)
      .addColumn('superseded_at', timestamp)
      .addCheckConstraint('activations_reason_check', sql`reason in ('registration', 'resend')`)
      .execute();
    await db.schema.createIndex('activations_member_created_idx').on('activations').columns(['member_id', 'created_at']).execute();

    await db.schema
      .createTable('welcome_vouchers')
      .addColumn('member_id', 'text', (c) => c.primaryKey().references('members.id').onDelete('cascade'))
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('percent', 'integer', (c) => c.notNull())
      .addColumn('minimum_order_value', 'integer')
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('valid_until', timestamp, (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('welcome_vouchers_percent_check', sql`percent > 0 and percent < 100`)
      .addCheckConstraint('welcome_vouchers_mov_check', sql`minimum_order_value is null or minimum_order_value > 0`)
      .execute();

    await db.schema
      .createTable('admin_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('admin_user_id', 'text', (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .addColumn('revoked_at', timestamp)
      .execute();
    await db.schema.createIndex('admin_sessions_user_idx').on('admin_sessions').column('admin_user_id').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['admin_sessions', 'welcome_vouchers', 'activations']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
