/**
 * The language an admin reads the console in, kept at each sign-in (null until the first one
 * after this release): what the club's emails to admins are written in (ADR 065, the owners'
 * "endpoint switched off" email). A nullable column the previous release never reads: expand
 * only. Frozen once released.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const adminLanguageMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('admin_users').addColumn('language', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('admin_users').dropColumn('language').execute();
  },
};
