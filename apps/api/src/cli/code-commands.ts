/** CLI: `code create`, `code list`; leaked codes: `code flagged`, `code release`, `code rotate` (ADR 043). */
import { Option } from 'commander';
import type { Command } from 'commander';
import { CUSTOMIZATIONS } from '@velvet/validation/customization';
import { createRegistrationCode } from '../services/create-registration-code.ts';
import { listRegistrationCodes } from '../services/list-registration-codes.ts';
import type { RegistrationCodeSummary } from '../services/list-registration-codes.ts';
import { apiSettings } from '../config.ts';
import { listFlaggedCodes } from '../services/list-flagged-codes.ts';
import type { FlaggedCode } from '../services/list-flagged-codes.ts';
import { releaseCode } from '../services/release-code.ts';
import { rotateCode } from '../services/rotate-code.ts';
import { UsageError, formatTable, parseBalance, parseIsoDate, withDatabase } from './kit.ts';

function flaggedTable(rows: FlaggedCode[]): string {
  const header = ['CODE', 'INVITER', 'QUARANTINED', 'HELD', 'SCORE', 'REG/HOUR', 'NETWORKS/DAY', 'COUNTRIES/DAY', 'BLOCKED REFERRERS', 'NEAR MISSES'];
  return formatTable(header, rows.map((r) => [
    r.code,
    r.inviter,
    r.quarantinedAt,
    String(r.held),
    String(r.signals.score),
    String(r.signals.registrationsLastHour),
    String(r.signals.networksLastDay),
    String(r.signals.countriesLastDay),
    String(r.signals.blockedReferrersLastDay),
    String(r.signals.nearMissesLastDay),
  ]));
}

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

  code
    .command('flagged')
    .description('quarantined codes (leak signals past CODE_QUARANTINE_SCORE): their signals and the registrations held on them')
    .option('--json', 'print JSON instead of a table', false)
    .exitOverride()
    .action(async (options: { json: boolean }) => {
      const rows = await withDatabase((db) => listFlaggedCodes(db));
      if (options.json) console.log(JSON.stringify(rows, null, 2));
      else console.log(rows.length === 0 ? 'no flagged codes' : flaggedTable(rows));
    });

  code
    .command('release')
    .description('end a code\'s quarantine (a false alarm): its held registrations register now, while it has places')
    .requiredOption('--code <code>', 'the quarantined code')
    .exitOverride()
    .action(async (options: { code: string }) => {
      const result = await withDatabase((db, env) =>
        releaseCode({ db, secret: env.APP_SECRET, referrerBlocklist: apiSettings(env).referrerBlocklist }, options.code),
      );
      if (!result.ok) throw new UsageError(result.errors.join('\n'));
      const { code: released, registered, dropped } = result.value;
      console.log(`released ${released}: ${registered} held registration(s) registered, ${dropped} dropped`);
    });

  code
    .command('rotate')
    .description('replace a leaked code: a new code with its free places, the old one quarantined, the inviter emailed the new private link')
    .requiredOption('--code <code>', 'the code to replace')
    .option('--json', 'print the new code as JSON', false)
    .exitOverride()
    .action(async (options: { code: string; json: boolean }) => {
      const result = await withDatabase((db) => rotateCode(db, options.code));
      if (!result.ok) throw new UsageError(result.errors.join('\n'));
      const rotated = result.value;
      if (options.json) {
        console.log(JSON.stringify(rotated, null, 2));
        return;
      }
      console.log(`rotated ${rotated.oldCode} -> ${rotated.newCode} (balance ${rotated.balance}); the inviter's email is queued (${rotated.outboxId})`);
    });
}
