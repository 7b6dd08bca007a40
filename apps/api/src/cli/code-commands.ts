/** CLI: `code create`, `code list` (registration codes). */
import { Option } from 'commander';
import type { Command } from 'commander';
import { CUSTOMIZATIONS } from '@velvet/validation/customization';
import { createRegistrationCode } from '../services/create-registration-code.ts';
import { listRegistrationCodes } from '../services/list-registration-codes.ts';
import type { RegistrationCodeSummary } from '../services/list-registration-codes.ts';
import { UsageError, formatTable, parseBalance, parseIsoDate, withDatabase } from './kit.ts';

function table(rows: RegistrationCodeSummary[]): string {
  const header = ['CODE', 'INVITER', 'BALANCE', 'PENDING', 'EXPIRES', 'CUSTOMIZATION', 'STATE'];
  return formatTable(header, rows.map((r) => [
    r.code,
    r.inviter,
    String(r.balance),
    String(r.pending),
    r.expiresAt ?? '-',
    r.customization ?? '-',
    r.state,
  ]));
}

export function addCodeCommands(program: Command): void {
  const code = program.command('code').description('registration (invitation) codes').exitOverride();

  code
    .command('create')
    .description('create an active inviter member and a registration code for them')
    .requiredOption('--inviter <name>', "the inviter's first name (a new member is created per call)")
    .requiredOption('--balance <n>', 'invitations the code grants (whole number >= 0)', parseBalance)
    .option('--code <code>', 'the code (4-64 letters, digits, hyphens; upper-cased); random 8 characters when absent')
    .option('--expires <iso>', 'expiry as an ISO 8601 date/time', parseIsoDate)
    .addOption(new Option('--customization <variant>', 'landing-text variant').choices(CUSTOMIZATIONS))
    .option('--slug <slug>', 'the landing slug (/{slug}) the code is meant for')
    .option('--requires-timestamp', 'only usable through a signed link from `link create`', false)
    .option('--json', 'print the created code as JSON (code, inviter, inviterEmail, ...) instead of text', false)
    .exitOverride()
    .action(
      async (options: {
        inviter: string;
        balance: number;
        code?: string;
        expires?: Date;
        customization?: (typeof CUSTOMIZATIONS)[number];
        slug?: string;
        requiresTimestamp: boolean;
        json: boolean;
      }) => {
        const result = await withDatabase((db) =>
          createRegistrationCode(db, {
            inviterFirstName: options.inviter,
            balance: options.balance,
            code: options.code,
            expiresAt: options.expires,
            customization: options.customization,
            landingSlug: options.slug,
            requiresValidityTimestamp: options.requiresTimestamp,
          }),
        );
        if (!result.ok) throw new UsageError(result.errors.join('\n'));
        const created = result.value;
        if (options.json) {
          console.log(JSON.stringify({ ...created, inviter: options.inviter.trim() }, null, 2));
          return;
        }
        console.log(`created registration code ${created.code}`);
        console.log(`  inviter:       ${options.inviter.trim()} (member ${created.inviterMemberId})`);
        console.log(`  balance:       ${created.balance}`);
        console.log(`  expires:       ${created.expiresAt ?? 'never'}`);
        console.log(`  customization: ${created.customization ?? '-'}`);
        console.log(`  slug:          ${created.landingSlug ?? '-'}`);
        console.log(`  link only:     ${created.requiresValidityTimestamp ? 'yes' : 'no'}`);
      },
    );

  code
    .command('list')
    .description('list all codes with inviter, balance, pending registrations and state')
    .option('--json', 'print JSON instead of a table', false)
    .exitOverride()
    .action(async (options: { json: boolean }) => {
      const rows = await withDatabase((db) => listRegistrationCodes(db));
      if (options.json) console.log(JSON.stringify(rows, null, 2));
      else console.log(rows.length === 0 ? 'no registration codes' : table(rows));
    });
}
