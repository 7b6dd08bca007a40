/** CLI: `waitlist list|invite` and `interest list|select` (personal invitations). */
import type { Command } from 'commander';
import {
  PERSONAL_CODE_VALIDITY_DAYS,
  inviteFromWaitlist,
  listMembershipApplications,
  listWaitlist,
  selectMembershipApplication,
} from '../services/personal-invitations.ts';
import { UsageError, csv, formatTable, parsePositive, withDatabase } from './kit.ts';

export function addInvitationCommands(program: Command): void {
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
      const invited = await withDatabase((db, env) => inviteFromWaitlist(db, options.count, new Date(), env.APP_SECRET));
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
      const result = await withDatabase((db, env) => selectMembershipApplication(db, options.email, new Date(), env.APP_SECRET));
      if (!result.ok) throw new UsageError(result.errors.join('\n'));
      console.log(`selected ${result.value.email}: code ${result.value.code}, valid until ${result.value.expiresAt}`);
      console.log('a running API sends the invitation email within seconds (`mail list` shows it)');
    });
}
