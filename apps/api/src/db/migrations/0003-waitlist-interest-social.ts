/**
 * Waiting list, membership interest and social sign-up (issue 4): waitlist entries,
 * membership applications, a member's shopping preferences and the social identities a
 * member signed up with. Frozen once released: the preference list is a literal here.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

const SHOPPING_PREFERENCES_2026 = ['WOMEN', 'MEN', 'KIDS', 'HOME', 'BEAUTY', 'LUXURY', 'SPORT'];

export const waitlistInterestSocialMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';

    await db.schema
      .createTable('waitlist_entries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('joined_at', timestamp, (c) => c.notNull())
      .addColumn('consent_at', timestamp, (c) => c.notNull())
      .addColumn('invited_at', timestamp)
      .addColumn('registration_code_id', 'text', (c) => c.references('registration_codes.id').onDelete('set null'))
      .addCheckConstraint('waitlist_entries_email_lower_check', sql`email = lower(email)`)
      .execute();
    // `waitlist invite` takes the earliest uninvited entries.
    await db.schema.createIndex('waitlist_entries_invited_joined_idx').on('waitlist_entries').columns(['invited_at', 'joined_at']).execute();

    await db.schema
      .createTable('membership_applications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('country', 'text')
      .addColumn('consent_at', timestamp, (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('selected_at', timestamp)
      .addColumn('registration_code_id', 'text', (c) => c.references('registration_codes.id').onDelete('set null'))
      .addCheckConstraint('membership_applications_email_lower_check', sql`email = lower(email)`)
      .execute();
    await db.schema.createIndex('membership_applications_created_idx').on('membership_applications').column('created_at').execute();

    await db.schema
      .createTable('member_preferences')
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('preference', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_preferences_pkey', ['member_id', 'preference'])
      .addCheckConstraint(
        'member_preferences_preference_check',
        sql`preference in (${sql.join(SHOPPING_PREFERENCES_2026.map((p) => sql.lit(p)))})`,
      )
      .execute();

    await db.schema
      .createTable('member_social_identities')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('member_social_identities_pkey', ['provider', 'subject'])
      .execute();
    await db.schema.createIndex('member_social_identities_member_idx').on('member_social_identities').column('member_id').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['member_social_identities', 'member_preferences', 'membership_applications', 'waitlist_entries']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
