/**
 * Issue 19 §4: the outbox worker checks a row's payload against its template's schema before it
 * renders the email (mail/email-templates.ts), and no longer reads the activation email's
 * inviter under the key it had before issue 10 renamed it (`invitorName`, ADR 034). Rows queued
 * before the rename would now be refused, so their payloads are rewritten to the current key,
 * with the value the worker read until now (`inviterName`, else `invitorName`, else none).
 *
 * Every activation row is rewritten, whatever its status: a failed one may still be retried
 * from the console. Nothing to undo: code of before this migration reads `inviterName` first.
 * Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

interface OldPayloadRow {
  id: string;
  payload: string;
}

export const outboxInviterNameMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // PostgreSQL: the migrator's transaction already; SQLite: one of its own.
    const atOnce = <T>(work: (trx: Kysely<unknown>) => Promise<T>) => (db.isTransaction ? work(db) : db.transaction().execute(work));
    await atOnce(async (trx) => {
      const { rows } = await sql<OldPayloadRow>`select id, payload from email_outbox
        where template = 'activation' and payload like '%"invitorName"%'`.execute(trx);
      for (const row of rows) {
        const { invitorName, ...payload } = JSON.parse(row.payload) as { invitorName?: unknown; inviterName?: unknown };
        const inviterName = payload.inviterName ?? invitorName ?? null;
        await sql`update email_outbox set payload = ${JSON.stringify({ ...payload, inviterName })} where id = ${row.id}`.execute(trx);
      }
    });
  },

  async down() {
    // The rewritten rows are what the code before this migration reads too.
  },
};
