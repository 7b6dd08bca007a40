/**
 * Issue 11: the leak watch (ADR 043) read every signal of the last day of a code on each of its
 * registrations — one row per registration, so a campaign code's thousandth registration of the
 * day read a thousand rows (5.6 ms at 10,000 on SQLite, on the one thread that answers
 * everyone). It now keeps what its score needs, each bounded:
 *
 * - `code_signal_counts`: how many observations of each kind a code had in each 5-minute bucket
 *   (an upsert per observation; a window is the sum of at most 288 rows, the last hour of 13);
 * - `code_signal_sources`: each client network and country a code was seen from, with when it
 *   was last seen (an upsert per observation; the networks of the last day are those seen since,
 *   counted only as far as the score needs).
 *
 * The rows of `code_signals` are folded into both, and the table goes. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const codeSignalCountsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';

    await db.schema
      .createTable('code_signal_counts')
      .addColumn('registration_code_id', 'text', (c) => c.notNull().references('registration_codes.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      // The start of the 5-minute bucket (UTC).
      .addColumn('bucket_start', timestamp, (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('code_signal_counts_pk', ['registration_code_id', 'kind', 'bucket_start'])
      .addCheckConstraint('code_signal_counts_kind_check', sql`kind in ('registration', 'blocked_referrer', 'near_miss')`)
      .execute();
    await db.schema
      .createTable('code_signal_sources')
      .addColumn('registration_code_id', 'text', (c) => c.notNull().references('registration_codes.id').onDelete('cascade'))
      .addColumn('dimension', 'text', (c) => c.notNull())
      // A client network (IPv4 /24, IPv6 /64) or a country code, never an address.
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('last_seen', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('code_signal_sources_pk', ['registration_code_id', 'dimension', 'value'])
      .addCheckConstraint('code_signal_sources_dimension_check', sql`dimension in ('network', 'country')`)
      .execute();
    await db.schema
      .createIndex('code_signal_sources_seen_idx')
      .on('code_signal_sources')
      .columns(['registration_code_id', 'dimension', 'last_seen'])
      .execute();

    // The existing observations, folded (bucket = the 5-minute start of created_at).
    const bucket = postgres
      ? sql`to_timestamp(floor(extract(epoch from created_at) / 300) * 300)`
      : sql`strftime('%Y-%m-%dT%H:', created_at) || printf('%02d', (cast(strftime('%M', created_at) as integer) / 5) * 5) || ':00.000Z'`;
    await sql`
      insert into code_signal_counts (registration_code_id, kind, bucket_start, count)
      select registration_code_id, kind, ${bucket}, count(*) from code_signals group by registration_code_id, kind, ${bucket}
    `.execute(db);
    for (const dimension of ['network', 'country'] as const) {
      await sql`
        insert into code_signal_sources (registration_code_id, dimension, value, last_seen)
        select registration_code_id, ${dimension}, ${sql.ref(dimension)}, max(created_at) from code_signals
        where ${sql.ref(dimension)} is not null group by registration_code_id, ${sql.ref(dimension)}
      `.execute(db);
    }
    await db.schema.dropTable('code_signals').execute();
  },

  async down(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';
    // As 0006 made it; the folded counts cannot be unfolded into single observations.
    await db.schema
      .createTable('code_signals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('registration_code_id', 'text', (c) => c.notNull().references('registration_codes.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('network', 'text')
      .addColumn('country', 'text')
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('code_signals_kind_check', sql`kind in ('registration', 'blocked_referrer', 'near_miss')`)
      .execute();
    await db.schema.createIndex('code_signals_code_created_idx').on('code_signals').columns(['registration_code_id', 'created_at']).execute();
    await db.schema.dropTable('code_signal_sources').execute();
    await db.schema.dropTable('code_signal_counts').execute();
  },
};
