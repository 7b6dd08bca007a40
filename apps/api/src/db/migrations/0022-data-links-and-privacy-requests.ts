/**
 * Issue 24 §2 (ADR 066): people at the door own their data without an account. `data_links`
 * keeps the SHA-256 of each "manage my data" link's reference (128 bits, 22 characters), the
 * address it opens and its expiry (7 days), as lobby_links does. `privacy_requests` holds what
 * needs a person — a member's data the door cannot delete, or a free-text request — with the
 * date it came in and the legal deadline (one month, GDPR Art. 12(3)). New tables the previous
 * release never reads: expand only. Frozen once released.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const dataLinksAndPrivacyRequestsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = engineOf(db) === 'postgres' ? 'timestamptz' : 'text';
    await db.schema
      .createTable('data_links')
      .addColumn('reference_hash', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('data_links_email_idx').on('data_links').column('email').execute();
    await db.schema.createIndex('data_links_expires_idx').on('data_links').column('expires_at').execute();
    await db.schema
      .createTable('privacy_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // The address, so that an operator can answer; deleted with the address's data once done.
      .addColumn('email', 'text', (c) => c.notNull())
      // `subject:` pseudonym (ADR 048), what the audit log names.
      .addColumn('subject', 'text', (c) => c.notNull())
      // 'erase-member' (an account the door cannot delete) or 'other' (free text).
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('received_at', timestamp, (c) => c.notNull())
      .addColumn('due_at', timestamp, (c) => c.notNull())
      .addColumn('done_at', timestamp)
      .addColumn('done_by_admin_id', 'text')
      .execute();
    await db.schema.createIndex('privacy_requests_open_idx').on('privacy_requests').columns(['done_at', 'due_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('privacy_requests').execute();
    await db.schema.dropTable('data_links').execute();
  },
};
