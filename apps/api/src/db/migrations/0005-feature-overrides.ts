/**
 * Feature flags and A/B tests (issue 5, ADR 012): the operators' overrides of the versioned
 * features file, and one revision row every change bumps, so each API instance can tell
 * cheaply that something changed. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const featureOverridesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';

    await db.schema
      .createTable('feature_overrides')
      .addColumn('key', 'text', (c) => c.primaryKey())
      // A GrowthBook feature definition (defaultValue, rules) as JSON text, validated by the API.
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('feature_revision')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('feature_revision_single_row_check', sql`id = 1`)
      .execute();
    await sql`insert into feature_revision (id, revision, updated_at) values (1, 0, ${new Date(0).toISOString()})`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('feature_revision').execute();
    await db.schema.dropTable('feature_overrides').execute();
  },
};
