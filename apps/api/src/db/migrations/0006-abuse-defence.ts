/**
 * Abuse defence (issue 12, ADR 041-043): personal single-use codes, leaked-code quarantine and
 * its signals, registrations held for review, and the mark of an address whose domain could not
 * be checked because DNS was unreachable. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const abuseDefenceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';
    const bool = postgres ? 'boolean' : 'integer';
    const no = sql.raw(postgres ? 'false' : '0');

    await db.schema
      .alterTable('registration_codes')
      .addColumn('single_use', bool, (c) => c.notNull().defaultTo(no))
      .execute();
    // Set while the code is quarantined: new registrations on it are held for review.
    await db.schema.alterTable('registration_codes').addColumn('quarantined_at', timestamp).execute();
    // Signals older than this do not count (an operator released the code).
    await db.schema.alterTable('registration_codes').addColumn('signals_since', timestamp).execute();
    for (const table of ['members', 'membership_applications']) {
      await db.schema
        .alterTable(table)
        .addColumn('mail_domain_unverified', bool, (c) => c.notNull().defaultTo(no))
        .execute();
    }

    await db.schema
      .createTable('code_signals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('registration_code_id', 'text', (c) => c.notNull().references('registration_codes.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      // The client's network (/24 or /64) and country; null when unknown.
      .addColumn('network', 'text')
      .addColumn('country', 'text')
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('code_signals_kind_check', sql`kind in ('registration', 'blocked_referrer', 'near_miss')`)
      .execute();
    await db.schema.createIndex('code_signals_code_created_idx').on('code_signals').columns(['registration_code_id', 'created_at']).execute();

    await db.schema
      .createTable('held_registrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('registration_code_id', 'text', (c) => c.notNull().references('registration_codes.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      // The registration as submitted (JSON): registered for real when the code is released.
      .addColumn('submission', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addUniqueConstraint('held_registrations_code_email_unique', ['registration_code_id', 'email'])
      .addCheckConstraint('held_registrations_email_lower_check', sql`email = lower(email)`)
      .execute();
    await db.schema.createIndex('held_registrations_created_idx').on('held_registrations').column('created_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('held_registrations').execute();
    await db.schema.dropTable('code_signals').execute();
    for (const table of ['membership_applications', 'members']) {
      await db.schema.alterTable(table).dropColumn('mail_domain_unverified').execute();
    }
    for (const column of ['signals_since', 'quarantined_at', 'single_use']) {
      await db.schema.alterTable('registration_codes').dropColumn(column).execute();
    }
  },
};
