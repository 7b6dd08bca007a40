/**
 * Issue 20 §2: one stranger could shut a member's invitation — four visits with a web-mail
 * Referer, fourteen near-miss codes or ten registrations from one address reached the leak
 * score, because the watch counted observations, not who made them (ADR 054).
 *
 * `code_signal_networks`: what each client network did on a code, once per kind — registered
 * (with a free place, or beyond the places), came from a blocked referrer, typed a near miss —
 * with the network's country and when it was last seen. One upsert per observation; the score
 * counts networks, never repeats.
 *
 * Expand only: `code_signal_counts` (still written, the operators' raw counts) and
 * `code_signal_sources` (no longer written; read by the version before this one, pruned by the
 * retention pass) stay. Nothing is folded in: the older tables do not say which network did
 * what, so the new score starts from the first observation after the deploy. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const codeSignalNetworksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = engineOf(db) === 'postgres' ? 'timestamptz' : 'text';
    await db.schema
      .createTable('code_signal_networks')
      .addColumn('registration_code_id', 'text', (c) => c.notNull().references('registration_codes.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      // A client network (IPv4 /24, IPv6 /48), never an address.
      .addColumn('network', 'text', (c) => c.notNull())
      // Its country as the edge named it last, when known.
      .addColumn('country', 'text')
      .addColumn('last_seen', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('code_signal_networks_pk', ['registration_code_id', 'kind', 'network'])
      .addCheckConstraint(
        'code_signal_networks_kind_check',
        sql`kind in ('registration', 'registration_beyond_places', 'blocked_referrer', 'near_miss')`,
      )
      .execute();
    await db.schema
      .createIndex('code_signal_networks_seen_idx')
      .on('code_signal_networks')
      .columns(['registration_code_id', 'kind', 'last_seen'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('code_signal_networks').execute();
  },
};
