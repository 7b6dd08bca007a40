/**
 * The console's invitations (issue 13, ADR 046): a code can be revoked (refused to visitors with
 * its own message), by an operator or by a rotation that replaced it; and the indexes that keep
 * the console's code list fast at 100,000 codes and 1 million members on both engines:
 * newest first (created_at, id) overall, per slug, per customization, for the rare states
 * (partial: revoked, quarantined), the expired ones by expiry, the inviter by first name
 * (case-insensitive), and a code's funnel events by hour. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const codeConsoleMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    await db.schema.alterTable('registration_codes').addColumn('revoked_at', postgres ? 'timestamptz' : 'text').execute();
    // 'revoked' by an operator, or 'rotated' (replaced by a new code): the visitor's message differs.
    await db.schema
      .alterTable('registration_codes')
      .addColumn('revoked_reason', 'text', (c) => c.check(sql`revoked_reason is null or revoked_reason in ('revoked', 'rotated')`))
      .execute();

    await sql`create index registration_codes_created_idx on registration_codes (created_at, id)`.execute(db);
    await sql`create index registration_codes_slug_created_idx on registration_codes (landing_slug, created_at, id)`.execute(db);
    await sql`create index registration_codes_customization_created_idx on registration_codes (customization, created_at, id)`.execute(db);
    await sql`create index registration_codes_revoked_created_idx on registration_codes (created_at, id) where revoked_at is not null`.execute(db);
    await sql`create index registration_codes_quarantined_created_idx on registration_codes (created_at, id) where quarantined_at is not null`.execute(db);
    await sql`create index registration_codes_expires_idx on registration_codes (expires_at)`.execute(db);
    await sql`create index members_first_name_lower_idx on members (lower(first_name))`.execute(db);
    await sql`create index funnel_events_code_hour_idx on funnel_events (registration_code_id, hour)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const index of [
      'funnel_events_code_hour_idx',
      'members_first_name_lower_idx',
      'registration_codes_expires_idx',
      'registration_codes_quarantined_created_idx',
      'registration_codes_revoked_created_idx',
      'registration_codes_customization_created_idx',
      'registration_codes_slug_created_idx',
      'registration_codes_created_idx',
    ]) {
      await db.schema.dropIndex(index).execute();
    }
    await db.schema.alterTable('registration_codes').dropColumn('revoked_reason').execute();
    await db.schema.alterTable('registration_codes').dropColumn('revoked_at').execute();
  },
};
