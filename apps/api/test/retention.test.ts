/**
 * Retention (ADR 014) on SQLite and PostgreSQL: rows past their period go, everything
 * else stays — above all emails still to be sent.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { enqueueEmail } from '../src/mail/outbox.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { loginAdmin, verifyAdminToken } from '../src/auth/admin-sessions.ts';
import { recordConsent } from '../src/services/record-consent.ts';
import { recordFunnelEvents } from '../src/services/record-funnel-events.ts';
import { createDataLink } from '../src/domain/data-links.ts';
import { createLobbyLink } from '../src/domain/lobby-links.ts';
import { hashToken } from '../src/lib/tokens.ts';
import { RETENTION_DAYS, pruneExpiredData, startRetentionJob } from '../src/jobs/retention.ts';
import { ENGINES, engineDatabase } from './support/engines.ts';
import { TEST_SECRET } from './support/env.ts';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

describe.each(ENGINES)('retention on %s', (engine) => {
  const database = engineDatabase(engine);

  async function email(status: 'pending' | 'sending' | 'sent' | 'failed', createdDaysAgo: number, sentDaysAgo?: number): Promise<string> {
    const id = await enqueueEmail(
      database.db,
      { template: 'invitation', recipient: `${randomUUID()}@example.test`, locale: 'en', payload: { code: 'ABCD2345', expiresAt: NOW.toISOString(), reason: 'waitlist' } },
      daysAgo(createdDaysAgo),
    );
    await database.db
      .updateTable('email_outbox')
      .set({ status, sent_at: sentDaysAgo === undefined ? null : daysAgo(sentDaysAgo).toISOString() })
      .where('id', '=', id)
      .execute();
    return id;
  }

  it('deletes sent and failed emails, funnel events, consent records and ended admin sessions past their periods, and nothing else', async () => {
    const db = database.db;
    const keep = {
      pendingForever: await email('pending', 400),
      sendingForever: await email('sending', 400),
      sentRecently: await email('sent', 40, RETENTION_DAYS.sentEmails - 1),
      failedRecently: await email('failed', RETENTION_DAYS.failedEmails - 1),
    };
    await email('sent', 40, RETENTION_DAYS.sentEmails + 1);
    await email('failed', RETENTION_DAYS.failedEmails + 1);

    const session = randomUUID();
    await recordFunnelEvents({ db, now: daysAgo(RETENTION_DAYS.funnelEvents + 1) }, [{ name: 'landing', sessionId: session }], null);
    await recordFunnelEvents({ db, now: daysAgo(RETENTION_DAYS.funnelEvents - 1) }, [{ name: 'landing', sessionId: session }], null);

    const consent = (days: number) =>
      recordConsent(
        { db, now: daysAgo(days) },
        { consentId: randomUUID(), action: 'ACCEPT_ALL', source: 'BANNER', analytics: true, marketing: true, version: 1, language: 'en', country: 'DE' },
        null,
      );
    await consent(RETENTION_DAYS.consentRecords + 1);
    await consent(RETENTION_DAYS.consentRecords - 1);

    const admin = await createAdminUser(db, { email: 'ops@example.test', password: 'a long enough password for tests' });
    if (!admin.ok) throw new Error(admin.errors.join());
    const login = (at: Date) => loginAdmin({ db, secret: TEST_SECRET, now: at }, { email: 'ops@example.test', password: 'a long enough password for tests' });
    await login(daysAgo(30)); // ended long ago
    const current = await login(NOW);
    if (current.kind !== 'session') throw new Error('login failed');

    // A lobby link that expired can let nobody join: it goes; one still valid stays (ADR 060).
    await createLobbyLink(db, 'gone@example.test', daysAgo(1), daysAgo(8));
    const validLink = await createLobbyLink(db, 'kept@example.test', new Date(NOW.getTime() + 60_000), daysAgo(1));
    // Likewise a "manage my data" link past its 7 days (ADR 066).
    await createDataLink(db, 'gone@example.test', daysAgo(8));
    const validDataLink = await createDataLink(db, 'kept@example.test', daysAgo(1));

    const report = await pruneExpiredData(db, NOW);
    expect(report).toEqual({ sentEmails: 1, failedEmails: 1, funnelEvents: 1, consentRecords: 1, adminSessions: 1, expiredRegistrations: 0, lobbyLinks: 1, dataLinks: 1 });
    expect(await db.selectFrom('lobby_links').select('reference_hash').execute()).toEqual([{ reference_hash: hashToken(validLink) }]);
    expect(await db.selectFrom('data_links').select('reference_hash').execute()).toEqual([{ reference_hash: hashToken(validDataLink.reference) }]);

    const emails = await db.selectFrom('email_outbox').select('id').execute();
    expect(emails.map((e) => e.id).sort()).toEqual(Object.values(keep).sort());
    expect(await db.selectFrom('funnel_events').select('id').execute()).toHaveLength(1);
    expect(await db.selectFrom('consent_records').select('id').execute()).toHaveLength(1);
    expect(await verifyAdminToken({ db, secret: TEST_SECRET, now: NOW }, current.token)).not.toBeNull();

    // A second pass finds nothing more.
    expect(await pruneExpiredData(db, NOW)).toEqual({ sentEmails: 0, failedEmails: 0, funnelEvents: 0, consentRecords: 0, adminSessions: 0, expiredRegistrations: 0, lobbyLinks: 0, dataLinks: 0 });
  });

  it('runs in the API process and logs what it deleted', async () => {
    await email('sent', 100, 100);
    const lines: object[] = [];
    let reported!: () => void;
    const done = new Promise<void>((resolve) => (reported = resolve));
    const job = startRetentionJob({
      db: database.db,
      firstRunMs: 0,
      now: () => NOW,
      logger: {
        info: (fields) => {
          lines.push(fields);
          reported();
        },
        error: (fields) => {
          lines.push(fields);
          reported();
        },
      },
    });
    await done;
    await job.stop();
    expect(lines).toEqual([{ sentEmails: 1, failedEmails: 0, funnelEvents: 0, consentRecords: 0, adminSessions: 0, expiredRegistrations: 0, lobbyLinks: 0, dataLinks: 0 }]);
    expect(await database.db.selectFrom('email_outbox').select('id').execute()).toEqual([]);
  });
});
