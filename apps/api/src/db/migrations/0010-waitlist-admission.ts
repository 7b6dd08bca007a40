/**
 * The waiting list and applicants in the admin console (issue 13, ADR 047): keyset indexes for
 * the lists (by arrival; the waiting / invited and open / selected halves each their own partial
 * index), batch releases written in chunks (the progress the page shows, resumed by any API
 * instance after a restart), and the daily admission capacity (one row, locked by the job that
 * admits within it). Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const waitlistAdmissionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';

    // The lists page by (arrival, id): first come first served, and a stable cursor.
    await sql`create index waitlist_entries_joined_id_idx on waitlist_entries (joined_at, id)`.execute(db);
    await sql`create index waitlist_entries_waiting_idx on waitlist_entries (joined_at, id) where invited_at is null`.execute(db);
    await sql`create index waitlist_entries_invited_idx on waitlist_entries (joined_at, id) where invited_at is not null`.execute(db);
    await sql`create index membership_applications_created_id_idx on membership_applications (created_at, id)`.execute(db);
    await sql`create index membership_applications_open_idx on membership_applications (created_at, id) where selected_at is null`.execute(db);
    await sql`create index membership_applications_selected_idx on membership_applications (created_at, id) where selected_at is not null`.execute(db);

    await db.schema
      .createTable('waitlist_releases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // 'batch' (an operator's "invite the next N") or 'capacity' (the daily admission job).
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('requested', 'integer', (c) => c.notNull())
      .addColumn('invited', 'integer', (c) => c.notNull().defaultTo(0))
      // 'running' until `requested` are invited or nobody is left waiting, then 'done'.
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('actor_admin_id', 'text')
      .addColumn('actor_email', 'text')
      .addColumn('client_address', 'text')
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('finished_at', timestamp)
      .addCheckConstraint('waitlist_releases_counts_check', sql`requested > 0 and invited >= 0 and invited <= requested`)
      .execute();
    await db.schema.createIndex('waitlist_releases_status_idx').on('waitlist_releases').columns(['status', 'created_at']).execute();

    await db.schema
      .createTable('admission_capacity')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      // New members a day (UTC) the waiting list is released for by itself; 0 = off.
      .addColumn('daily_limit', 'integer', (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('admission_capacity_single_row_check', sql`id = 1`)
      .addCheckConstraint('admission_capacity_limit_check', sql`daily_limit >= 0 and daily_limit <= 100000`)
      .execute();
    await sql`insert into admission_capacity (id, daily_limit, updated_at) values (1, 0, ${new Date(0).toISOString()})`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('admission_capacity').execute();
    await db.schema.dropTable('waitlist_releases').execute();
    for (const index of [
      'membership_applications_selected_idx',
      'membership_applications_open_idx',
      'membership_applications_created_id_idx',
      'waitlist_entries_invited_idx',
      'waitlist_entries_waiting_idx',
      'waitlist_entries_joined_id_idx',
    ]) {
      await db.schema.dropIndex(index).execute();
    }
  },
};
