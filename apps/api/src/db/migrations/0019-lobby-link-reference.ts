/**
 * Issue 22 (UX review row 19, ADR 060): the lobby email's link carries a short random reference
 * (128 bits, 22 characters) instead of a five-line signed token. The reference names the address
 * and the link's expiry here; only its SHA-256 is kept, as activations and leave links keep
 * theirs. A new table the previous release never reads, so it runs while that release still
 * serves (expand only). Frozen once released.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const lobbyLinkReferenceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = engineOf(db) === 'postgres' ? 'timestamptz' : 'text';
    await db.schema
      .createTable('lobby_links')
      // base64url SHA-256 of the reference the email's link carries.
      .addColumn('reference_hash', 'text', (c) => c.primaryKey())
      // Lower-case, as the waiting list keeps it: the address the link lets join.
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .execute();
    // Erasure deletes an address's links; retention deletes the expired ones.
    await db.schema.createIndex('lobby_links_email_idx').on('lobby_links').column('email').execute();
    await db.schema.createIndex('lobby_links_expires_idx').on('lobby_links').column('expires_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('lobby_links').execute();
  },
};
