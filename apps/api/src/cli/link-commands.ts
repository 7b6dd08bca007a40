/** CLI: `link create` (signed registration links) and `token lobby` (lobby links): the links the CLI prints. */
import type { Command } from 'commander';
import { LOBBY_TOKEN_DEFAULT_DAYS, signLobbyToken } from '@velvet/tokens/signed-token';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { lobbyUrl } from '../mail/links.ts';
import { REGISTRATION_LINK_VALIDITY_DAYS, createRegistrationLink } from '../domain/registration-link.ts';
import { UsageError, loadEnv, parseBaseUrl, parseEmail, parsePositive, withDatabase } from './kit.ts';

export function addLinkCommands(program: Command): void {
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
}

export function addTokenCommands(program: Command): void {
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
}
