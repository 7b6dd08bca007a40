/**
 * Issue 11 (ADR 036): two things the API read on every code check and registration, made cheap.
 *
 * - `members.place_held_until`: until when a pending member holds their place on their code —
 *   the expiry of their current activation link, written with the link (`issueActivation`);
 *   null while they have none (imported or demo rows: they hold it). Counting the places held
 *   on a code is then one range of the new index instead of a look-up in `activations` per
 *   pending member (3 ms per count at 3,500 pending members on one code).
 * - `registration_codes.pending_members`: the pending members on the code, kept by triggers in
 *   the transaction of every change of `members`, whoever makes it. Each of them holds at most
 *   one place, so a code with fewer pending members than its balance has a free place without
 *   counting; only a code that may be full is counted (a campaign code with thousands of
 *   pending registrations and room for more was counted on every registration).
 * - `legal_documents_revision`: one row that triggers bump on every change of
 *   `legal_documents`, in the changing transaction, whoever changes it; the API keeps the
 *   documents in memory and reloads them when the revision it reads has moved.
 *
 * Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const heldPlacesAndLegalRevisionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';

    await db.schema
      .alterTable('members')
      .addColumn('place_held_until', postgres ? 'timestamptz' : 'text')
      .execute();
    // A member's current links are neither used nor superseded (one at most); the earliest expiry
    // gives the place back, as the rule read it before (any current link expired: released).
    await sql`
      update members set place_held_until = (
        select min(a.expires_at) from activations a
        where a.member_id = members.id and a.used_at is null and a.superseded_at is null
      )
      where status = 'pending'
    `.execute(db);
    await db.schema.dropIndex('members_registration_code_status_idx').execute();
    await db.schema
      .createIndex('members_registration_code_status_place_idx')
      .on('members')
      .columns(['registration_code_id', 'status', 'place_held_until'])
      .execute();

    await db.schema
      .alterTable('registration_codes')
      .addColumn('pending_members', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`
      update registration_codes set pending_members = (
        select count(*) from members m where m.registration_code_id = registration_codes.id and m.status = 'pending'
      )
    `.execute(db);
    if (postgres) {
      await sql`
        create function members_count_pending() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') and old.status = 'pending' and old.registration_code_id is not null then
            update registration_codes set pending_members = pending_members - 1 where id = old.registration_code_id;
          end if;
          if tg_op in ('UPDATE', 'INSERT') and new.status = 'pending' and new.registration_code_id is not null then
            update registration_codes set pending_members = pending_members + 1 where id = new.registration_code_id;
          end if;
          return null;
        end
        $$
      `.execute(db);
      await sql`
        create trigger members_pending_trigger
        after insert or delete or update of status, registration_code_id on members
        for each row execute function members_count_pending()
      `.execute(db);
    } else {
      await sql`
        create trigger members_pending_insert after insert on members
        when new.status = 'pending' and new.registration_code_id is not null
        begin
          update registration_codes set pending_members = pending_members + 1 where id = new.registration_code_id;
        end
      `.execute(db);
      await sql`
        create trigger members_pending_delete after delete on members
        when old.status = 'pending' and old.registration_code_id is not null
        begin
          update registration_codes set pending_members = pending_members - 1 where id = old.registration_code_id;
        end
      `.execute(db);
      await sql`
        create trigger members_pending_update after update of status, registration_code_id on members
        begin
          update registration_codes set pending_members = pending_members - 1 where old.status = 'pending' and id = old.registration_code_id;
          update registration_codes set pending_members = pending_members + 1 where new.status = 'pending' and id = new.registration_code_id;
        end
      `.execute(db);
    }

    await db.schema
      .createTable('legal_documents_revision')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addCheckConstraint('legal_documents_revision_single_row_check', sql`id = 1`)
      .execute();
    await sql`insert into legal_documents_revision (id, revision) values (1, 0)`.execute(db);
    if (postgres) {
      await sql`
        create function legal_documents_bump_revision() returns trigger language plpgsql as $$
        begin
          update legal_documents_revision set revision = revision + 1;
          return null;
        end
        $$
      `.execute(db);
      await sql`
        create trigger legal_documents_revision_trigger
        after insert or update or delete or truncate on legal_documents
        for each statement execute function legal_documents_bump_revision()
      `.execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql`
          create trigger ${sql.raw(`legal_documents_revision_${event}`)} after ${sql.raw(event)} on legal_documents
          begin
            update legal_documents_revision set revision = revision + 1;
          end
        `.execute(db);
      }
    }
  },

  async down(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    if (postgres) {
      await sql`drop trigger legal_documents_revision_trigger on legal_documents`.execute(db);
      await sql`drop function legal_documents_bump_revision()`.execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.raw(`legal_documents_revision_${event}`)}`.execute(db);
    }
    await db.schema.dropTable('legal_documents_revision').execute();
    if (postgres) {
      await sql`drop trigger members_pending_trigger on members`.execute(db);
      await sql`drop function members_count_pending()`.execute(db);
    } else {
      for (const event of ['insert', 'delete', 'update']) await sql`drop trigger ${sql.raw(`members_pending_${event}`)}`.execute(db);
    }
    await db.schema.alterTable('registration_codes').dropColumn('pending_members').execute();
    await db.schema.dropIndex('members_registration_code_status_place_idx').execute();
    await db.schema
      .createIndex('members_registration_code_status_idx')
      .on('members')
      .columns(['registration_code_id', 'status'])
      .execute();
    await db.schema.alterTable('members').dropColumn('place_held_until').execute();
  },
};
