/** CLI: `data prune`, `migrate`, `seed` (the stored data and its schema). */
import type { Command } from 'commander';
import { connectDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { DECLINE_KEEP_DAYS, RETENTION_DAYS, pruneDeclines, pruneErasureRecords, pruneExpiredData, pruneLeakRecords } from '../jobs/retention.ts';
import { seedAdminUser, seedDemoData } from '../seed.ts';
import { loadEnv, withDatabase } from './kit.ts';

export function addDataCommands(program: Command): void {
  const data = program.command('data').description('stored data').exitOverride();
  data
    .command('prune')
    .description(
      `delete rows past their retention: sent emails after ${RETENTION_DAYS.sentEmails} days, failed ones after ${RETENTION_DAYS.failedEmails}, ` +
        `funnel events after ${RETENTION_DAYS.funnelEvents}, consent records after ${RETENTION_DAYS.consentRecords}, ` +
        `ended admin sessions after ${RETENTION_DAYS.adminSessions}, registrations never activated ${RETENTION_DAYS.expiredRegistrations} days after their link expired, ` +
        `lobby links once expired, declines ${DECLINE_KEEP_DAYS} days after their cool-down ended (a running API does this every 6 hours)`,
    )
    .exitOverride()
    .action(async () => {
      const report = await withDatabase(async (db) => {
        await pruneLeakRecords(db);
        await pruneErasureRecords(db);
        return { ...(await pruneExpiredData(db)), declines: await pruneDeclines(db) };
      });
      console.log(
        `deleted ${report.sentEmails} sent and ${report.failedEmails} failed emails, ${report.funnelEvents} funnel events, ` +
          `${report.consentRecords} consent records, ${report.adminSessions} admin sessions, ${report.expiredRegistrations} expired registrations, ${report.lobbyLinks} expired lobby links, ${report.declines} declines past their cool-down, ${report.dataLinks} expired data links`,
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
        const { applied } = await migrateToLatest(database.db, { secret: env.APP_SECRET });
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
}
