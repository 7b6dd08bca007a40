/**
 * Issue 18 (item 6), ADR 048's addendum: the audit log names people only by their pseudonym.
 *
 * - Entries written before named an invited waiting-list entry or a selected applicant by address
 *   (`waitlist.invited`, `waitlist.admitted`, `applicants.selected`): an erasure could not reach
 *   them. Every entry whose target is an address — but those about an admin account, which name
 *   staff — is rewritten to the address's pseudonym (`privacySubject`, a key of APP_SECRET: the
 *   migration needs the secret when there is such an entry, and refuses without it), and the
 *   address is replaced in its details too. The append-only triggers are set aside for this one
 *   rewrite and are back in force before it commits (one transaction on either engine).
 * - SQLite: `INSERT OR REPLACE` replaced an entry without firing the delete trigger (REPLACE
 *   fires delete triggers only with recursive_triggers). A trigger now refuses any insert whose
 *   id or seq is taken, before the conflict is resolved. PostgreSQL has no REPLACE, and its
 *   upsert (`ON CONFLICT DO UPDATE`) fires the update trigger, which refuses it already.
 *
 * The rewrite cannot be undone (the addresses are gone); down() only removes the trigger.
 * Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { privacySubject } from '../../domain/privacy-subject.ts';
import { engineOf } from '../engine.ts';

interface AuditLogPseudonymsContext {
  /** APP_SECRET: the pseudonyms' key. */
  secret?: string;
}

interface AddressedEntry {
  seq: number | string;
  action: string;
  target: string;
  details: string;
}

export function auditLogPseudonymsMigration(context: AuditLogPseudonymsContext): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const postgres = engineOf(db) === 'postgres';
      // PostgreSQL: the migrator's transaction already; SQLite: one of its own.
      const atOnce = <T>(work: (trx: Kysely<unknown>) => Promise<T>) => (db.isTransaction ? work(db) : db.transaction().execute(work));
      await atOnce(async (trx) => {
        if (!postgres) {
          await sql`create trigger audit_log_no_replace before insert on audit_log
            when exists (select 1 from audit_log where id = new.id) or exists (select 1 from audit_log where seq = new.seq)
            begin select raise(abort, 'audit_log is append-only'); end`.execute(trx);
        }
        const { rows } = await sql<AddressedEntry>`select seq, action, target, details from audit_log
          where target like '%@%' and action not like 'admin.%' order by seq`.execute(trx);
        if (rows.length === 0) return;
        const { secret } = context;
        if (!secret) {
          throw new Error(`${rows.length} audit entries name a person by address: the pseudonyms need APP_SECRET (migrateToLatest(db, { secret }))`);
        }
        if (postgres) await sql`alter table audit_log disable trigger audit_log_append_only`.execute(trx);
        else await sql`drop trigger audit_log_no_update`.execute(trx);
        for (const row of rows) {
          const reference = privacySubject(row.target, secret);
          const details = row.details.replaceAll(row.target, reference);
          await sql`update audit_log set target = ${reference}, details = ${details} where seq = ${row.seq}`.execute(trx);
        }
        if (postgres) await sql`alter table audit_log enable trigger audit_log_append_only`.execute(trx);
        else {
          await sql`create trigger audit_log_no_update before update on audit_log
            begin select raise(abort, 'audit_log is append-only'); end`.execute(trx);
        }
      });
    },

    async down(db: Kysely<unknown>) {
      if (engineOf(db) !== 'postgres') await sql`drop trigger audit_log_no_replace`.execute(db);
    },
  };
}
