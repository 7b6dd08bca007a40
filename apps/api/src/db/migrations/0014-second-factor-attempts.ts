/**
 * Issue 18 §2: the admins' second factor could be guessed — its attempts were counted per address
 * and per challenge and address, so addresses of one IPv6 /64 each started afresh, and nothing
 * remembered a challenge once it was redeemed (ADR 045, addendum).
 *
 * - `admin_second_factor_challenges`: each challenge the password step issues, with its attempts
 *   (five, then it is dead) and when it was redeemed (once). An attempt is counted, and a
 *   redemption written, by a conditional UPDATE, so two attempts at once are counted twice and
 *   redeem once on both engines.
 * - `admin_users.second_factor_failures` / `second_factor_failures_since`: the admin's wrong codes
 *   in the window that began at the first of them (ten in 15 minutes lock the second step until
 *   the window ends).
 *
 * Frozen once released.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const secondFactorAttemptsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = engineOf(db) === 'postgres' ? 'timestamptz' : 'text';
    await db.schema
      .createTable('admin_second_factor_challenges')
      // The challenge token's `jti`.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('admin_user_id', 'text', (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .addColumn('redeemed_at', timestamp)
      .execute();
    await db.schema
      .createIndex('admin_second_factor_challenges_admin_idx')
      .on('admin_second_factor_challenges')
      .columns(['admin_user_id', 'expires_at'])
      .execute();
    await db.schema.alterTable('admin_users').addColumn('second_factor_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('admin_users').addColumn('second_factor_failures_since', timestamp).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('admin_users').dropColumn('second_factor_failures_since').execute();
    await db.schema.alterTable('admin_users').dropColumn('second_factor_failures').execute();
    await db.schema.dropTable('admin_second_factor_challenges').execute();
  },
};
