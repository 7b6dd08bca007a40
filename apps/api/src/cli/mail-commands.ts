/** CLI: `mail list`, `mail retry` (the email outbox). */
import { Option } from 'commander';
import type { Command } from 'commander';
import { OUTBOX_STATUSES } from '../db/schema.ts';
import type { OutboxStatus } from '../db/schema.ts';
import { listOutbox, retryOutboxRow } from '../services/manage-outbox.ts';
import type { OutboxSummary } from '../services/manage-outbox.ts';
import { UsageError, formatTable, parseBalance, withDatabase } from './kit.ts';

function outboxTable(rows: OutboxSummary[]): string {
  const header = ['ID', 'TEMPLATE', 'STATUS', 'ATTEMPTS', 'CREATED', 'NEXT ATTEMPT / SENT'];
  return formatTable(
    header,
    rows.map((r) => [r.id, r.template, r.status, String(r.attempts), r.createdAt, r.sentAt ?? (r.status === 'failed' ? '-' : r.nextAttemptAt)]),
  );
}

export function addMailCommands(program: Command): void {
  const mail = program.command('mail').description('the email outbox').exitOverride();
  mail
    .command('list')
    .description('outbox rows, newest first: id, template, status, attempts, created')
    .addOption(new Option('--status <status>', 'only rows with this status').choices(OUTBOX_STATUSES))
    .option('--limit <n>', 'at most this many rows (default 100)', parseBalance)
    .option('--json', 'print JSON instead of a table', false)
    .exitOverride()
    .action(async (options: { status?: OutboxStatus; limit?: number; json: boolean }) => {
      const rows = await withDatabase((db) => listOutbox(db, { status: options.status, limit: options.limit }));
      if (options.json) console.log(JSON.stringify(rows, null, 2));
      else console.log(rows.length === 0 ? 'no emails in the outbox' : outboxTable(rows));
    });
  mail
    .command('retry')
    .description('send a failed (or waiting) email again now, with a fresh count of attempts')
    .requiredOption('--id <id>', 'the outbox row id (from `mail list`)')
    .exitOverride()
    .action(async (options: { id: string }) => {
      const result = await withDatabase((db) => retryOutboxRow(db, options.id));
      if (!result.ok) throw new UsageError(result.errors.join('\n'));
      console.log(`outbox row ${result.value.id} is due now; a running API sends it within seconds`);
    });
}
