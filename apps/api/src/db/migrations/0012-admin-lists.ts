/**
 * The admin console's lists (issue 13, ADR 049), index-served on both engines:
 * - the outbox, newest first, by status or not, a page at a time with a keyset cursor on
 *   (created_at, id): two indexes read backwards; the worker's (status, next_attempt_at) stays;
 * - the audit log filtered by two of action, actor and target at once: 0008's single-column
 *   indexes left the database to walk one of them and filter the other, which reads every entry of
 *   the actor (or of the action) when the combination is rare. A pair and seq answer it directly.
 * Frozen once released.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

const INDEXES = [
  { name: 'email_outbox_created_idx', table: 'email_outbox', columns: ['created_at', 'id'] },
  { name: 'email_outbox_status_created_idx', table: 'email_outbox', columns: ['status', 'created_at', 'id'] },
  { name: 'audit_log_action_actor_idx', table: 'audit_log', columns: ['action', 'actor_email', 'seq'] },
  { name: 'audit_log_action_target_idx', table: 'audit_log', columns: ['action', 'target', 'seq'] },
  { name: 'audit_log_actor_target_idx', table: 'audit_log', columns: ['actor_email', 'target', 'seq'] },
];

export const adminListsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const { name, table, columns } of INDEXES) await db.schema.createIndex(name).on(table).columns(columns).execute();
  },

  async down(db: Kysely<unknown>) {
    for (const { name } of [...INDEXES].reverse()) await db.schema.dropIndex(name).execute();
  },
};
