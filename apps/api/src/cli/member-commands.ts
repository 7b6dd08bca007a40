/** CLI: `member block|unblock` and `admin create`. */
import type { Command } from 'commander';
import type { AdminRole } from '@velvet/validation/admin';
import { createAdminUser } from '../services/create-admin-user.ts';
import { setMemberBlocked } from '../services/block-member.ts';
import { UsageError, parseEmail, withDatabase } from './kit.ts';

export function addMemberCommands(program: Command): void {
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
    .option('--role <role>', 'owner (default), operator, support, privacy or viewer')
    .exitOverride()
    .action(async (options: { email: string; password?: string; role?: string }) => {
      const password = options.password ?? (process.env.ADMIN_PASSWORD || undefined);
      const result = await withDatabase((db) => createAdminUser(db, { email: options.email, password, role: options.role as AdminRole | undefined }));
      if (!result.ok) throw new UsageError(result.errors.join('\n'));
      console.log(`created admin user ${result.value.email} (${result.value.role})`);
      if (result.value.generatedPassword) {
        console.log(`generated password (shown once, store it now): ${result.value.generatedPassword}`);
      }
    });
}
