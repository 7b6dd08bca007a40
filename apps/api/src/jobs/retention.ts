/**
 * Retention (ADR 014): rows are kept as long as they serve their purpose, then deleted.
 * Sent emails hold an address and a payload and are kept only to answer "did it go out?";
 * funnel events (no personal data) for two seasons of year-on-year comparison; consent
 * records as long as the choice is relied upon (the consent cookie's lifetime) plus the
 * three-year limitation period in which it may have to be proven; admin sessions a week
 * past their end; registrations never activated (pending members) a month after their last
 * activation link expired — their place went back to the invitation when it expired (ADR 029),
 * and after this the address can register afresh; a lobby link (ADR 060) once it expired, as it
 * can let nobody join any more; a decline 90 days after its cool-down ended (pruneDeclines). Pending and sending emails are never deleted. Every worker process runs
 * the pass every few hours (deleting is idempotent); `npm run cli -- data prune` runs it now.
 */
import type { Db } from '../db/connect.ts';

const DAY_MS = 86_400_000;

export const RETENTION_DAYS = {
  /** Emails sent: the delivery log. */
  sentEmails: 30,
  /** Emails that failed for good (counted from their creation): long enough to investigate and retry. */
  failedEmails: 90,
  /** First-party funnel events: 25 months. */
  funnelEvents: 760,
  /** Consent records: the consent cookie's 182 days, then three years in which a choice may have to be proven. */
  consentRecords: 182 + 3 * 365,
  /** Admin sessions after they expired or were revoked. */
  adminSessions: 7,
  /** Pending registrations after their current activation link expired (the place was released then). */
  expiredRegistrations: 30,
} as const;

export type RetentionPolicy = Record<keyof typeof RETENTION_DAYS, number>;

export interface PruneReport {
  sentEmails: number;
  failedEmails: number;
  funnelEvents: number;
  consentRecords: number;
  adminSessions: number;
  expiredRegistrations: number;
  lobbyLinks: number;
  /** "Manage my data" links past their expiry (ADR 066). */
  dataLinks: number;
}

/** Deletes every row past its retention period; returns how many of each kind. */
export async function pruneExpiredData(db: Db, now: Date = new Date(), policy: RetentionPolicy = RETENTION_DAYS): Promise<PruneReport> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  const sentEmails = await db
    .deleteFrom('email_outbox')
    .where('status', '=', 'sent')
    .where('sent_at', '<', before(policy.sentEmails))
    .executeTakeFirst();
  const failedEmails = await db
    .deleteFrom('email_outbox')
    .where('status', '=', 'failed')
    .where('created_at', '<', before(policy.failedEmails))
    .executeTakeFirst();
  const funnelEvents = await db.deleteFrom('funnel_events').where('hour', '<', before(policy.funnelEvents)).executeTakeFirst();
  const consentRecords = await db.deleteFrom('consent_records').where('recorded_at', '<', before(policy.consentRecords)).executeTakeFirst();
  const sessionCutoff = before(policy.adminSessions);
  const adminSessions = await db
    .deleteFrom('admin_sessions')
    .where((eb) => eb.or([eb('expires_at', '<', sessionCutoff), eb('revoked_at', '<', sessionCutoff)]))
    .executeTakeFirst();
  // Pending members whose current link expired long ago (not inviters: their codes refer to them);
  // their consents, links and preferences go with them (ON DELETE CASCADE).
  const expiredRegistrations = await db
    .deleteFrom('members')
    .where('members.status', '=', 'pending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('activations as a')
          .select('a.id')
          .whereRef('a.member_id', '=', 'members.id')
          .where('a.used_at', 'is', null)
          .where('a.superseded_at', 'is', null)
          .where('a.expires_at', '<', before(policy.expiredRegistrations)),
      ),
    )
    .where((eb) => eb.not(eb.exists(eb.selectFrom('registration_codes as rc').select('rc.id').whereRef('rc.inviter_member_id', '=', 'members.id'))))
    .executeTakeFirst();
  const lobbyLinks = await db.deleteFrom('lobby_links').where('expires_at', '<', now.toISOString()).executeTakeFirst();
  // "Manage my data" links past their 7 days open nothing (ADR 066).
  const dataLinks = await db.deleteFrom('data_links').where('expires_at', '<', now.toISOString()).executeTakeFirst();
  return {
    sentEmails: count(sentEmails),
    failedEmails: count(failedEmails),
    funnelEvents: count(funnelEvents),
    consentRecords: count(consentRecords),
    adminSessions: count(adminSessions),
    expiredRegistrations: count(expiredRegistrations),
    lobbyLinks: count(lobbyLinks),
    dataLinks: count(dataLinks),
  };
}

/**
 * The leak watch's records (ADR 043): code signals count over a day at most, and a registration
 * held on a quarantined code that no operator released within a month is dropped. Kept apart from
 * pruneExpiredData's report, whose figures `data prune` prints.
 */
const LEAK_RECORD_RETENTION_DAYS = 30;

export async function pruneLeakRecords(db: Db, now: Date = new Date()): Promise<{ codeSignals: number; heldRegistrations: number }> {
  const cutoff = new Date(now.getTime() - LEAK_RECORD_RETENTION_DAYS * DAY_MS).toISOString();
  const counts = await db.deleteFrom('code_signal_counts').where('bucket_start', '<', cutoff).executeTakeFirst();
  // No longer written since migration 0017; what is left there ages out here.
  const sources = await db.deleteFrom('code_signal_sources').where('last_seen', '<', cutoff).executeTakeFirst();
  const networks = await db.deleteFrom('code_signal_networks').where('last_seen', '<', cutoff).executeTakeFirst();
  const heldRegistrations = await db.deleteFrom('held_registrations').where('created_at', '<', cutoff).executeTakeFirst();
  const codeSignals = [counts, sources, networks].reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
  return { codeSignals, heldRegistrations: Number(heldRegistrations.numDeletedRows) };
}

/**
 * The records of deletion requests (ADR 048): the consent proofs kept under a pseudonym and the
 * fact of the request, for the three-year limitation period in which either may have to be shown.
 */
const ERASURE_RECORD_RETENTION_DAYS = 3 * 365;

export async function pruneErasureRecords(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ERASURE_RECORD_RETENTION_DAYS * DAY_MS).toISOString();
  return Number((await db.deleteFrom('privacy_erasures').where('requested_at', '<', cutoff).executeTakeFirst()).numDeletedRows);
}

/**
 * Declined applications (ADR 063 and its addendum): the decline is what holds the cool-down, and
 * the applicant's history the console shows. It is kept DECLINE_KEEP_DAYS past the cool-down's
 * end — long enough for an operator deciding a re-application sent when the cool-down ended to
 * see the earlier decision, and always past the status page's 30-day pace — then deleted with
 * the status links that show it (those links then answer as unknown, like any other gone row).
 */
export const DECLINE_KEEP_DAYS = 90;

export async function pruneDeclines(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DECLINE_KEEP_DAYS * DAY_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const past = trx.selectFrom('application_declines').select('id').where('reapply_after', '<', cutoff);
    await trx.deleteFrom('status_references').where('kind', '=', 'decline').where('target_id', 'in', past).execute();
    return Number((await trx.deleteFrom('application_declines').where('reapply_after', '<', cutoff).executeTakeFirst()).numDeletedRows);
  });
}

/**
 * Delivered webhooks (ADR 065): the console shows the recent ones and a replay needs the row, so a
 * month is kept, as for sent emails; undelivered ones stay until they are delivered.
 */
const DELIVERED_WEBHOOK_RETENTION_DAYS = 30;

export async function pruneDeliveredWebhooks(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERED_WEBHOOK_RETENTION_DAYS * DAY_MS).toISOString();
  return Number((await db.deleteFrom('webhook_deliveries').where('status', '=', 'delivered').where('delivered_at', '<', cutoff).executeTakeFirst()).numDeletedRows);
}

export interface RetentionJobOptions {
  db: Db;
  logger: { info(fields: object, message: string): void; error(fields: object, message: string): void };
  /** First pass after this many ms (default 1 min, so start-up is not slowed). */
  firstRunMs?: number;
  /** Then every this many ms (default 6 h). */
  intervalMs?: number;
  now?: () => Date;
}

/** Runs `pruneExpiredData` now and then in this process; stop() waits for a running pass. */
export function startRetentionJob(options: RetentionJobOptions): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = async () => {
    try {
      const now = options.now?.() ?? new Date();
      const report = await pruneExpiredData(options.db, now);
      options.logger.info(report, 'retention: expired rows deleted');
      const leak = await pruneLeakRecords(options.db, now);
      if (leak.codeSignals > 0 || leak.heldRegistrations > 0) options.logger.info(leak, 'retention: old leak signals and held registrations deleted');
      const erasureRecords = await pruneErasureRecords(options.db, now);
      if (erasureRecords > 0) options.logger.info({ erasureRecords }, 'retention: deletion records past three years deleted');
      const declines = await pruneDeclines(options.db, now);
      if (declines > 0) options.logger.info({ declines }, 'retention: declines past their cool-down and keep period deleted');
      const deliveredWebhooks = await pruneDeliveredWebhooks(options.db, now);
      if (deliveredWebhooks > 0) options.logger.info({ deliveredWebhooks }, 'retention: webhooks delivered over a month ago deleted');
    } catch (error) {
      options.logger.error({ err: error }, 'retention: pass failed');
    }
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().then(() => schedule(options.intervalMs ?? 6 * 60 * 60 * 1000));
    }, ms);
    timer.unref();
  };
  schedule(options.firstRunMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
