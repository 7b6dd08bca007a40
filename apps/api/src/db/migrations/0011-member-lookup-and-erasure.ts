/**
 * The member look-up and the data-protection tools (issue 13, ADR 048):
 * - indexes for finding everything held about one address, exact: the emails sent or queued to
 *   it (`email_outbox.recipient`) and its registrations held on a quarantined code
 *   (`held_registrations.email`); members, the waiting list and the applications are unique by
 *   address already; the funnel of the codes a person owns (`funnel_events.registration_code_id`,
 *   counted per code for the export);
 * - `privacy_erasures`: the record of each deletion request — who asked, when, what went and
 *   the consent proofs kept — under a pseudonym of the address (an HMAC), never the address.
 * Frozen once released.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const memberLookupAndErasureMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = engineOf(db) === 'postgres' ? 'timestamptz' : 'text';
    await db.schema.createIndex('email_outbox_recipient_created_idx').on('email_outbox').columns(['recipient', 'created_at']).execute();
    await db.schema.createIndex('held_registrations_email_idx').on('held_registrations').column('email').execute();
    await db.schema.createIndex('funnel_events_code_event_idx').on('funnel_events').columns(['registration_code_id', 'event']).execute();
    await db.schema
      .createTable('privacy_erasures')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('requested_at', timestamp, (c) => c.notNull())
      .addColumn('admin_user_id', 'text')
      .addColumn('removed', 'text', (c) => c.notNull())
      .addColumn('kept', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('privacy_erasures_subject_idx').on('privacy_erasures').columns(['subject', 'requested_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('privacy_erasures').execute();
    await db.schema.dropIndex('funnel_events_code_event_idx').execute();
    await db.schema.dropIndex('held_registrations_email_idx').execute();
    await db.schema.dropIndex('email_outbox_recipient_created_idx').execute();
  },
};
