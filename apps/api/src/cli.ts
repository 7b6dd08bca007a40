/**
 * The admin CLI: `npm run cli -- <command>` from the repository root.
 * Same environment parsing and database connection as the server. Every database
 * command first brings the schema up to date (a no-op when it already is).
 *
 * Exit codes: 0 done, 2 bad arguments or rejected input (message on stderr), 1 unexpected failure.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { EnvError, parseEnv } from './config.ts';
import type { Env } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import type { Db } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { CUSTOMIZATIONS } from '@velvet/validation/customization';
import { seedAdminUser, seedDemoData } from './seed.ts';
import { OUTBOX_STATUSES } from './db/schema.ts';
import type { OutboxStatus } from './db/schema.ts';
import { listOutbox, retryOutboxRow } from './services/manage-outbox.ts';
import type { OutboxSummary } from './services/manage-outbox.ts';
import { createAdminUser } from './services/create-admin-user.ts';
import { lobbyUrl } from './mail/links.ts';
import { createRegistrationCode } from './services/create-registration-code.ts';
import { setMemberBlocked } from './services/block-member.ts';
import { listRegistrationCodes } from './services/list-registration-codes.ts';
import type { RegistrationCodeSummary } from './services/list-registration-codes.ts';
import { REGISTRATION_LINK_VALIDITY_DAYS, createRegistrationLink } from './services/registration-link.ts';
import {
  PERSONAL_CODE_VALIDITY_DAYS,
  inviteFromWaitlist,
  listMembershipApplications,
  listWaitlist,
  selectMembershipApplication,
} from './services/personal-invitations.ts';
import { addFeatureCommands } from './cli/feature-commands.ts';
import { RETENTION_DAYS, pruneExpiredData } from './jobs/retention.ts';
import { LOBBY_TOKEN_DEFAULT_DAYS, signLobbyToken } from '@velvet/tokens/signed-token';
import { email as emailField } from '@velvet/validation/registration';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';

const EXIT_USAGE = 2;

/** Input the command rejects: printed to stderr, exit code 2. */
class UsageError extends Error {}

function parseBalance(value: string): number {
  if (!/^\d{1,9}$/.test(value.trim())) throw new InvalidArgumentError('must be a non-negative whole number.');
  return Number(value);
}

function parsePositive(max: number) {
  return (value: string): number => {
    const n = /^\d{1,9}$/.test(value.trim()) ? Number(value) : NaN;
    if (!(n >= 1 && n <= max)) throw new InvalidArgumentError(`must be a whole number from 1 to ${max}.`);
    return n;
  };
}

function parseEmail(value: string): string {
  const parsed = emailField.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError('must be a valid email address.');
  return parsed.data;
}

/**
 * One CSV field (RFC 4180). A value a spreadsheet would run as a formula (=, +, -, @ first;
 * an address may start with those) gets a leading apostrophe, as OWASP advises for exports.
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csv(header: string[], rows: string[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n');
}

function parseIsoDate(value: string): Date {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
  const date = new Date(value);
  if (!iso.test(value.trim()) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be an ISO 8601 date, e.g. 2026-12-31 or 2026-12-31T23:59:59Z.');
  }
  return date;
}

function parseBaseUrl(value: string): string {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidArgumentError('must be an http(s) URL, e.g. https://velvetrope.example.');
  }
  return url.origin + url.pathname.replace(/\/$/, '');
}

function loadEnv(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) throw new UsageError(error.message);
    throw error;
  }
}

/** Opens the database, migrates, runs `work`, closes. */
async function withDatabase<T>(work: (db: Db, env: Env) => Promise<T>): Promise<T> {
  const env = loadEnv();
  const database = connectDatabase(env.DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    return await work(database.db, env);
  } finally {
    await database.close();
  }
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

function outboxTable(rows: OutboxSummary[]): string {
  const header = ['ID', 'TEMPLATE', 'STATUS', 'ATTEMPTS', 'CREATED', 'NEXT ATTEMPT / SENT'];
  return formatTable(
    header,
    rows.map((r) => [r.id, r.template, r.status, String(r.attempts), r.createdAt, r.sentAt ?? (r.status === 'failed' ? '-' : r.nextAttemptAt)]),
  );
}

function formatTable(header: string[], cells: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
  return [header, ...cells].map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}

function buildProgram(): Command {
  const program = new Command()
    .name('velvet-api')
    .description('Velvet Rope API admin commands. Reads the same environment as the server (DATABASE_URL, APP_SECRET, ...).')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

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

  const member = program.command('member').description('members (inviters and registered visitors)').exitOverride();
  for (const [command, status, description] of [
    ['block', 'blocked', "block a member: their invitations stop working (visitors see 'invalid invitation')"],
    ['unblock', 'active', 'make a blocked member active again: their invitations work again'],
  ] as const) {
    member
      .command(command)
      .description(description)
      .requiredOption('--email <email>', "the member's email address (`code create --json` prints an inviter's)", parseEmail)
      .exitOverride()
      .action(async (options: { email: string }) => {
        const result = await withDatabase((db) => setMemberBlocked(db, options.email, status === 'blocked'));
        if (!result.ok) throw new UsageError(result.errors.join('\n'));
        console.log(`${result.value.email} is ${result.value.status} now`);
      });
  }

  const admin = program.command('admin').description('admin users of the admin pages').exitOverride();
  admin
    .command('create')
    .description(
      'create an admin user. Password: --password, else ADMIN_PASSWORD, else a strong one is generated and printed once',
    )
    .requiredOption('--email <email>', 'the admin e-mail address')
    .option('--password <password>', 'at least 12 characters (prefer ADMIN_PASSWORD: arguments show up in ps)')
    .exitOverride()
    .action(async (options: { email: string; password?: string }) => {
      const password = options.password ?? (process.env.ADMIN_PASSWORD || undefined);
      const result = await withDatabase((db) => createAdminUser(db, { email: options.email, password }));
      if (!result.ok) throw new UsageError(result.errors.join('\n'));
      console.log(`created admin user ${result.value.email}`);
      if (result.value.generatedPassword) {
        console.log(`generated password (shown once, store it now): ${result.value.generatedPassword}`);
      }
    });

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

  const link = program.command('link').description('registration links').exitOverride();
  link
    .command('create')
    .description(`print a signed registration link for a code, valid ${REGISTRATION_LINK_VALIDITY_DAYS} days`)
    .requiredOption('--code <code>', 'an existing registration code')
    .option('--base <url>', 'site address the link points to (default PUBLIC_URL)', parseBaseUrl)
    .exitOverride()
    .action(async (options: { code: string; base?: string }) => {
      const normalized = normalizeRegistrationCode(options.code);
      const created = await withDatabase(async (db, env) => {
        const row = await db
          .selectFrom('registration_codes')
          .select(['code', 'disabled'])
          .where('code', '=', normalized)
          .executeTakeFirst();
        if (!row) throw new UsageError(`registration code ${normalized} does not exist`);
        if (row.disabled) throw new UsageError(`registration code ${normalized} is disabled`);
        return createRegistrationLink({ publicUrl: options.base ?? env.PUBLIC_URL, code: row.code, secret: env.APP_SECRET });
      });
      console.log(created.url);
      console.error(`valid until ${created.expiresAt.toISOString()}`);
    });

  const waitlist = program.command('waitlist').description('the waiting list (people who joined from the lobby)').exitOverride();
  waitlist
    .command('list')
    .description('entries, earliest first: email, language, joined, invited, member (joined by another invitation); then the size')
    .option('--csv', 'print CSV (the size goes to stderr)', false)
    .exitOverride()
    .action(async (options: { csv: boolean }) => {
      const rows = await withDatabase((db) => listWaitlist(db));
      const uninvited = rows.filter((r) => r.invitedAt === null && !r.isMember).length;
      const members = rows.filter((r) => r.invitedAt === null && r.isMember).length;
      const size = `${rows.length} on the waiting list, ${uninvited} not invited yet${members ? `, ${members} already ${members === 1 ? 'a member' : 'members'} (skipped by invite)` : ''}`;
      const cells = rows.map((r) => [r.email, r.language, r.joinedAt, r.invitedAt ?? '', r.isMember ? 'yes' : '']);
      if (options.csv) {
        console.log(csv(['email', 'language', 'joined', 'invited', 'member'], cells));
        console.error(size);
        return;
      }
      if (rows.length > 0) console.log(formatTable(['EMAIL', 'LANGUAGE', 'JOINED', 'INVITED', 'MEMBER'], cells.map((c) => c.map((v) => v || '-'))));
      console.log(size);
    });
  waitlist
    .command('invite')
    .description(
      `invite the N earliest entries not invited yet (active members are skipped): a personal code each (1 place, valid ${PERSONAL_CODE_VALIDITY_DAYS} days) ` +
        'and the invitation email in their language',
    )
    .requiredOption('--count <n>', 'how many entries to invite (1-10000)', parsePositive(10_000))
    .exitOverride()
    .action(async (options: { count: number }) => {
      const invited = await withDatabase((db) => inviteFromWaitlist(db, options.count));
      console.log(`invited ${invited.length} of ${options.count} requested${invited.length < options.count ? ' (no more uninvited entries)' : ''}`);
      if (invited.length > 0) console.log('a running API sends the invitation emails within seconds (`mail list` shows them)');
    });

  const interest = program.command('interest').description('membership applications (membership interest)').exitOverride();
  interest
    .command('list')
    .description('applications, earliest first: email, language, country, applied, selected; then the size')
    .option('--csv', 'print CSV (the size goes to stderr)', false)
    .exitOverride()
    .action(async (options: { csv: boolean }) => {
      const rows = await withDatabase((db) => listMembershipApplications(db));
      const open = rows.filter((r) => r.selectedAt === null).length;
      const size = `${rows.length} applications, ${open} not selected yet`;
      const cells = rows.map((r) => [r.email, r.language, r.country ?? '', r.appliedAt, r.selectedAt ?? '']);
      if (options.csv) {
        console.log(csv(['email', 'language', 'country', 'applied', 'selected'], cells));
        console.error(size);
        return;
      }
      if (rows.length > 0) {
        console.log(formatTable(['EMAIL', 'LANGUAGE', 'COUNTRY', 'APPLIED', 'SELECTED'], cells.map((c) => c.map((v) => v || '-'))));
      }
      console.log(size);
    });
  interest
    .command('select')
    .description(`select an applicant: a personal code (1 place, valid ${PERSONAL_CODE_VALIDITY_DAYS} days) and the invitation email`)
    .requiredOption('--email <email>', "the applicant's email address")
    .exitOverride()
    .action(async (options: { email: string }) => {
      const result = await withDatabase((db) => selectMembershipApplication(db, options.email));
      if (!result.ok) throw new UsageError(result.errors.join('\n'));
      console.log(`selected ${result.value.email}: code ${result.value.code}, valid until ${result.value.expiresAt}`);
      console.log('a running API sends the invitation email within seconds (`mail list` shows it)');
    });

  const token = program.command('token').description('signed tokens (docs/decisions/009)').exitOverride();
  token
    .command('lobby')
    .description('print a lobby link (the waiting-list page) for an address')
    .requiredOption('--email <email>', 'the address the link joins to the waiting list', parseEmail)
    .option('--days <n>', `how long the link works (1-365, default ${LOBBY_TOKEN_DEFAULT_DAYS})`, parsePositive(365))
    .exitOverride()
    .action(async (options: { email: string; days?: number }) => {
      const env = loadEnv();
      const days = options.days ?? LOBBY_TOKEN_DEFAULT_DAYS;
      const now = new Date();
      const signed = await signLobbyToken({ email: options.email }, env.APP_SECRET, days * 86_400, now);
      console.log(lobbyUrl(env.PUBLIC_URL, 'en', signed));
      console.error(`valid until ${new Date(Math.floor(now.getTime() / 1000) * 1000 + days * 86_400_000).toISOString()}`);
    });

  addFeatureCommands(program, { withDatabase, usageError: (message) => new UsageError(message), formatTable });

  const data = program.command('data').description('stored data').exitOverride();
  data
    .command('prune')
    .description(
      `delete rows past their retention: sent emails after ${RETENTION_DAYS.sentEmails} days, failed ones after ${RETENTION_DAYS.failedEmails}, ` +
        `funnel events after ${RETENTION_DAYS.funnelEvents}, consent records after ${RETENTION_DAYS.consentRecords}, ` +
        `ended admin sessions after ${RETENTION_DAYS.adminSessions}, registrations never activated ${RETENTION_DAYS.expiredRegistrations} days after their link expired ` +
        `(a running API does this every 6 hours)`,
    )
    .exitOverride()
    .action(async () => {
      const report = await withDatabase((db) => pruneExpiredData(db));
      console.log(
        `deleted ${report.sentEmails} sent and ${report.failedEmails} failed emails, ${report.funnelEvents} funnel events, ` +
          `${report.consentRecords} consent records, ${report.adminSessions} admin sessions, ${report.expiredRegistrations} expired registrations`,
      );
    });

  program
    .command('migrate')
    .description('bring the database schema up to date')
    .exitOverride()
    .action(async () => {
      const env = loadEnv();
      const database = connectDatabase(env.DATABASE_URL);
      try {
        const { applied } = await migrateToLatest(database.db);
        console.log(applied.length === 0 ? 'database already up to date' : `applied: ${applied.join(', ')}`);
      } finally {
        await database.close();
      }
    });

  program
    .command('seed')
    .description('insert the demo codes when SEED_DEMO is true and there are no members yet; the ADMIN_EMAIL admin when set')
    .exitOverride()
    .action(async () => {
      const { outcome, admin } = await withDatabase(async (db, env) => ({
        outcome: await seedDemoData(db, env),
        admin: await seedAdminUser(db, env),
      }));
      if (outcome.seeded) console.log(`seeded ${outcome.codes} demo registration codes`);
      else if (outcome.reason === 'disabled') console.log('not seeded: SEED_DEMO is false');
      else console.log('not seeded: the database already has members');
      if (admin === 'created') console.log('created the admin user named by ADMIN_EMAIL');
      else if (admin === 'exists') console.log('admin user named by ADMIN_EMAIL already exists');
    });

  return program;
}

async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" under exitOverride; commander already printed them.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return 0;
      }
      return EXIT_USAGE;
    }
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      return EXIT_USAGE;
    }
    console.error('unexpected error:', error instanceof Error ? error.message : error);
    return 1;
  }
}

// `npm run cli` runs in apps/api; relative paths (DATA_DIR's default `data`, a `file:`
// DATABASE_URL) mean what they mean where npm was started: the repository root for the
// README's commands, the same `data/` that `npm start` uses.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
