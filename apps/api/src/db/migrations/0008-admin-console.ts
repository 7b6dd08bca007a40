/**
 * The admin console's foundation (issue 13, ADR 045): a role per admin, a second factor (TOTP
 * secret sealed with a key of APP_SECRET, single-use recovery codes), the owner's security
 * policy, and the audit log, append-only in the database itself (a trigger refuses UPDATE and
 * DELETE on both engines). Existing admins become owners: they could do everything before.
 * Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const adminConsoleMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';
    const bool = postgres ? 'boolean' : 'integer';

    await db.schema.alterTable('admin_users').addColumn('role', 'text', (c) => c.notNull().defaultTo('owner')).execute();
    await db.schema.alterTable('admin_users').addColumn('totp_secret', 'text').execute();
    await db.schema.alterTable('admin_users').addColumn('totp_enabled_at', timestamp).execute();
    // The time step of the last TOTP code accepted: a code is good once.
    await db.schema.alterTable('admin_users').addColumn('totp_last_step', 'integer').execute();
    await db.schema.alterTable('admin_users').addColumn('password_changed_at', timestamp).execute();
    await db.schema.alterTable('admin_users').addColumn('disabled_at', timestamp).execute();

    await db.schema
      .createTable('admin_recovery_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('admin_user_id', 'text', (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('used_at', timestamp)
      .execute();
    await db.schema.createIndex('admin_recovery_codes_admin_idx').on('admin_recovery_codes').column('admin_user_id').execute();

    await db.schema
      .createTable('admin_security_policy')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('require_second_factor', bool, (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('admin_security_policy_single_row_check', sql`id = 1`)
      .execute();
    await sql`insert into admin_security_policy (id, require_second_factor, updated_at) values (1, ${postgres ? sql`false` : sql`0`}, ${new Date(0).toISOString()})`.execute(db);

    await db.schema
      .createTable('audit_log')
      // The order things were written in (the clock can be set back; this cannot).
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('at', timestamp, (c) => c.notNull())
      .addColumn('actor_admin_id', 'text')
      // Kept as written: the admin may be deleted later, the record of what they did may not.
      .addColumn('actor_email', 'text')
      .addColumn('client_address', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      // JSON: { before, after } of what changed, or the facts of the event; never a secret.
      .addColumn('details', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'seq']).execute();
    await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_email', 'seq']).execute();
    await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target', 'seq']).execute();

    if (postgres) {
      await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
        begin raise exception 'audit_log is append-only'; end $$`.execute(db);
      await sql`create trigger audit_log_append_only before update or delete on audit_log
        for each row execute function audit_log_append_only()`.execute(db);
      await sql`create trigger audit_log_no_truncate before truncate on audit_log
        for each statement execute function audit_log_append_only()`.execute(db);
    } else {
      await sql`create trigger audit_log_no_update before update on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      await sql`create trigger audit_log_no_delete before delete on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    }
  },

  async down(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    await db.schema.dropTable('audit_log').execute();
    if (postgres) await sql`drop function audit_log_append_only()`.execute(db);
    await db.schema.dropTable('admin_security_policy').execute();
    await db.schema.dropTable('admin_recovery_codes').execute();
    for (const column of ['disabled_at', 'password_changed_at', 'totp_last_step', 'totp_enabled_at', 'totp_secret', 'role']) {
      await db.schema.alterTable('admin_users').dropColumn(column).execute();
    }
  },
};
