/**
 * The initial tables. Runs unchanged on SQLite and PostgreSQL; the only engine
 * differences are the column types for timestamps and booleans (see schema.ts) and the
 * circular foreign key members <-> registration_codes, which SQLite accepts as a forward
 * reference in CREATE TABLE while PostgreSQL needs an ALTER TABLE afterwards.
 *
 * A migration is frozen once released: it uses its own literal lists, never imports
 * from the live code.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

/** The 27 countries served when this migration was written (spec §3). */
const COUNTRIES_2026 = [
  'AT', 'BE', 'BG', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR',
  'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
];
const LEGAL_VERSION = '2026-01';
const LEGAL_PUBLISHED_AT = '2026-01-01T00:00:00.000Z';

type LegalDocumentsV1 = {
  legal_documents: { country: string; kind: string; pk_string: string; published_at: string };
};

export const initialMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';
    const bool = postgres ? 'boolean' : 'integer';
    const boolCheck = (column: string) => sql.raw(postgres ? 'true' : `${column} in (0, 1)`);

    await db.schema
      .createTable('members')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('gender', 'text')
      .addColumn('country', 'text')
      .addColumn('language', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('registration_code_id', 'text', (c) =>
        postgres ? c : c.references('registration_codes.id').onDelete('set null'),
      )
      .addColumn('newsletter', bool, (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('activated_at', timestamp)
      .addCheckConstraint('members_status_check', sql`status in ('pending', 'active', 'blocked')`)
      .addCheckConstraint('members_email_lower_check', sql`email = lower(email)`)
      .addCheckConstraint('members_newsletter_check', boolCheck('newsletter'))
      .execute();

    await db.schema
      .createTable('registration_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('inviter_member_id', 'text', (c) => c.notNull().references('members.id').onDelete('restrict'))
      .addColumn('balance', 'integer', (c) => c.notNull())
      .addColumn('expires_at', timestamp)
      .addColumn('customization', 'text')
      .addColumn('landing_slug', 'text')
      .addColumn('requires_validity_timestamp', bool, (c) => c.notNull().defaultTo(false))
      .addColumn('disabled', bool, (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('registration_codes_balance_check', sql`balance >= 0`)
      .addCheckConstraint('registration_codes_code_upper_check', sql`code = upper(trim(code))`)
      .addCheckConstraint('registration_codes_requires_check', boolCheck('requires_validity_timestamp'))
      .addCheckConstraint('registration_codes_disabled_check', boolCheck('disabled'))
      .execute();

    if (postgres) {
      await db.schema
        .alterTable('members')
        .addForeignKeyConstraint('members_registration_code_id_fkey', ['registration_code_id'], 'registration_codes', ['id'])
        .onDelete('set null')
        .execute();
    }
    await db.schema
      .createIndex('members_registration_code_status_idx')
      .on('members')
      .columns(['registration_code_id', 'status'])
      .execute();
    await db.schema
      .createIndex('registration_codes_inviter_idx')
      .on('registration_codes')
      .column('inviter_member_id')
      .execute();

    await db.schema
      .createTable('legal_documents')
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('pk_string', 'text', (c) => c.notNull())
      .addColumn('published_at', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('legal_documents_pkey', ['country', 'kind', 'pk_string'])
      .addCheckConstraint('legal_documents_kind_check', sql`kind in ('terms', 'data_policy')`)
      .execute();

    await db.schema
      .createTable('consents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('terms_pk_string', 'text', (c) => c.notNull())
      .addColumn('data_policy_pk_string', 'text', (c) => c.notNull())
      .addColumn('newsletter', bool, (c) => c.notNull())
      .addColumn('accepted_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('consents_newsletter_check', boolCheck('newsletter'))
      .execute();
    await db.schema.createIndex('consents_member_idx').on('consents').column('member_id').execute();

    await db.schema
      .createTable('email_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', timestamp, (c) => c.notNull())
      .addColumn('locked_until', timestamp)
      .addColumn('last_error', 'text')
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('sent_at', timestamp)
      .addCheckConstraint('email_outbox_status_check', sql`status in ('pending', 'sending', 'sent', 'failed')`)
      .execute();
    await db.schema
      .createIndex('email_outbox_status_next_attempt_idx')
      .on('email_outbox')
      .columns(['status', 'next_attempt_at'])
      .execute();

    await db.schema
      .createTable('admin_users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('admin_users_email_lower_check', sql`email = lower(email)`)
      .execute();

    await db
      .withTables<LegalDocumentsV1>()
      .insertInto('legal_documents')
      .values(
        COUNTRIES_2026.flatMap((country) => [
          { country, kind: 'terms', pk_string: `terms-${country}-${LEGAL_VERSION}`, published_at: LEGAL_PUBLISHED_AT },
          {
            country,
            kind: 'data_policy',
            pk_string: `data-policy-${country}-${LEGAL_VERSION}`,
            published_at: LEGAL_PUBLISHED_AT,
          },
        ]),
      )
      .execute();
  },

  async down(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    if (postgres) {
      await db.schema.alterTable('members').dropConstraint('members_registration_code_id_fkey').execute();
    }
    for (const table of ['admin_users', 'email_outbox', 'consents', 'legal_documents', 'registration_codes', 'members']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
