/**
 * Consent records and the first-party funnel (issue 5, ADR 011). Neither table holds
 * personal data: no IP address, no email, no member id; a consent record is keyed by the
 * random id of the consent cookie, a funnel event by a per-page-load random id, and the
 * time of a funnel event only to the hour.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const consentAndFunnelMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';
    const boolean = postgres ? 'boolean' : 'integer';

    await db.schema
      .createTable('consent_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('consent_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('analytics_granted', boolean, (c) => c.notNull())
      .addColumn('marketing_granted', boolean, (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('country', 'text')
      .addColumn('recorded_at', timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('consent_records_consent_id_idx').on('consent_records').columns(['consent_id', 'recorded_at']).execute();

    await db.schema
      .createTable('funnel_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('hour', timestamp, (c) => c.notNull())
      .addColumn('language', 'text')
      .addColumn('country', 'text')
      .addColumn('variant', 'text')
      .addColumn('registration_code_id', 'text', (c) => c.references('registration_codes.id').onDelete('set null'))
      .addColumn('landing_slug', 'text')
      .addColumn('analytics_consent', boolean, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('funnel_events_hour_idx').on('funnel_events').column('hour').execute();
    await db.schema.createIndex('funnel_events_event_idx').on('funnel_events').columns(['event', 'session_id']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('funnel_events').execute();
    await db.schema.dropTable('consent_records').execute();
  },
};
