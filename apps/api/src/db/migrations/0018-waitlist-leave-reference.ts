/**
 * Issue 22 §2 (ADR 058): the "you are on the waiting list" email carries a way to leave the list.
 * Its link holds a short random reference (128 bits, 22 characters), not a signed token; the
 * entry keeps only the reference's SHA-256, as activations keep theirs. Entries that joined
 * before this migration have none (their confirmation email was never sent); leaving uses the
 * reference up, since leaving deletes the entry. Expand only. Frozen once released.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const waitlistLeaveReferenceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('waitlist_entries').addColumn('leave_hash', 'text').execute();
    await db.schema.createIndex('waitlist_entries_leave_hash_idx').on('waitlist_entries').column('leave_hash').unique().execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('waitlist_entries_leave_hash_idx').execute();
    await db.schema.alterTable('waitlist_entries').dropColumn('leave_hash').execute();
  },
};
