/**
 * The waiting list and applicants in the admin console (issue 13, ADR 047) on SQLite and
 * PostgreSQL: permissions per role, server-side pages, inviting ticked rows exactly once, batch
 * releases worked off in chunks (also by two instances at once), and the daily admission
 * capacity, first come first served, never exceeded by two instances.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLES } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import type { UserError } from '@velvet/validation/user-errors';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { startAdmissionJob } from '../src/jobs/admission.ts';
import { privacySubject } from '../src/domain/privacy-subject.ts';
import { admitWithinCapacity, setCapacity, startRelease, workReleases } from '../src/services/waitlist-admission.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET } from './support/env.ts';
import { graphql } from './support/graphql.ts';
import { insertApplication, insertWaitlistEntry } from './support/invitations.ts';
import { insertMember } from './support/factories.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = 'mutation l($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }';
const WAITLIST = `query w($status: WaitlistStatus, $search: String, $day: String, $first: Int, $after: String) {
  waitlist(status: $status, search: $search, day: $day, first: $first, after: $after) {
    entries { id email language joinedAt invitedAt isMember } nextCursor } }`;
const APPLICANTS = `query a($status: ApplicantStatus, $search: String, $first: Int) {
  applicants(status: $status, search: $search, first: $first) { entries { id email appliedAt selectedAt isMember } nextCursor } }`;
const ADMISSION = '{ waitlistAdmission { dailyLimit admittedToday timeZone releases { id requested invited running kind actorEmail } } }';
const INVITE = 'mutation i($ids: [String!]!) { waitlistInvite(ids: $ids) { invited userErrors { code field messageId } } }';
const SELECT = 'mutation s($ids: [String!]!) { applicantsSelect(ids: $ids) { invited userErrors { code field messageId } } }';
const RELEASE = 'mutation r($count: Int!) { waitlistRelease(count: $count) { release { id requested invited running } userErrors { code field messageId } } }';
const CAPACITY = 'mutation c($dailyLimit: Int!) { waitlistSetCapacity(dailyLimit: $dailyLimit) { admission { dailyLimit admittedToday timeZone } userErrors { code field messageId } } }';

interface Entry {
  id: string;
  email: string;
  joinedAt: string;
  invitedAt: string | null;
  isMember: boolean;
}
interface Release {
  id: string;
  requested: number;
  invited: number;
  running: boolean;
}

describe.each(ENGINES)('waiting list and applicants on %s', (engine) => {
  const { database, api } = engineApi(engine);
  const call = <T = Record<string, unknown>>(query: string, token: string | null, variables: Record<string, unknown> = {}) =>
    graphql<T>(api.yoga, query, { variables, headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.body);

  async function signedIn(role: AdminRole) {
    const email = `${role}-${randomUUID()}@example.test`;
    const created = await createAdminUser(database.db, { email, password: PASSWORD, role });
    if (!created.ok) throw new Error(created.errors.join());
    const token = (await call<{ adminLogin: { token: string } }>(LOGIN, null, { email, password: PASSWORD })).data!.adminLogin.token;
    return { email, token };
  }

  /** `n` entries that joined a minute apart from `start`, earliest first. */
  async function waiting(n: number, start = '2026-11-01T08:00:00.000Z', db: Db = database.db) {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      email: `w${String(i).padStart(5, '0')}-${randomUUID().slice(0, 8)}@example.test`,
      language: i % 2 ? 'de' : 'sv',
      joined_at: new Date(Date.parse(start) + i * 60_000).toISOString(),
      consent_at: start,
      invited_at: null,
      registration_code_id: null,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('waitlist_entries').values(rows.slice(i, i + 500)).execute();
    return rows.map((r) => r.email);
  }
  const invitedEmails = async () =>
    (await database.db.selectFrom('waitlist_entries').select('email').where('invited_at', 'is not', null).orderBy('joined_at').execute()).map((r) => r.email);
  const outboxRecipients = async () =>
    (await database.db.selectFrom('email_outbox').select('recipient').where('template', '=', 'invitation').execute()).map((r) => r.recipient);
  /**
   * A second API instance: on PostgreSQL its own pool. SQLite is one file that one process writes
   * at a time; a second connection in this process would wait synchronously (busy_timeout) on the
   * lock the first holds across an await — so there the two workers share the connection and
   * interleave their transactions, as two processes would take turns on the file's lock.
   */
  const secondInstance = () => {
    const other = engine === 'postgres' ? database.connectAgain() : null;
    return { db: other?.db ?? database.db, close: () => other?.close() ?? Promise.resolve() };
  };
  /** What the admission's services need: the database, and the secret of the audit log's pseudonyms. */
  const admission = (db: Db = database.db) => ({ db, secret: TEST_SECRET });
  const auditOf = (action: string) =>
    database.db.selectFrom('audit_log').select(['actor_email', 'target', 'details']).where('action', '=', action).orderBy('seq').execute();

  it('lets every role read; only owner and operator invite, release and set the capacity (checked on the server)', async () => {
    const [email] = await waiting(1);
    for (const role of ADMIN_ROLES) {
      const { token } = await signedIn(role);
      const list = await call<{ waitlist: { entries: Entry[] } }>(WAITLIST, token);
      expect(list.data?.waitlist.entries.map((e) => e.email), role).toContain(email);
      expect((await call(APPLICANTS, token)).errors, role).toBeUndefined();
      expect((await call(ADMISSION, token)).errors, role).toBeUndefined();
      const allowed = role === 'owner' || role === 'operator';
      for (const [query, variables] of [
        [INVITE, { ids: ['x'] }],
        [SELECT, { ids: ['x'] }],
        [RELEASE, { count: 0 }],
        [CAPACITY, { dailyLimit: -1 }],
      ] as const) {
        const body = await call(query, token, variables);
        expect(body.errors?.[0]?.extensions?.code, `${role} ${query.slice(0, 30)}`).toBe(allowed ? undefined : 'FORBIDDEN');
      }
    }
    expect((await call(WAITLIST, null)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // Nobody was invited by the refused (or invalid) calls.
    expect(await invitedEmails()).toEqual([]);
    expect(await outboxRecipients()).toEqual([]);
  });

  it('pages on the server by arrival, filters by status and day, and searches an address by its beginning', async () => {
    const { token } = await signedIn('viewer');
    const emails = await waiting(7);
    await insertWaitlistEntry(database.db, { email: 'zora.search@example.test', joinedAt: '2026-11-03T10:00:00.000Z' });
    await database.db.updateTable('waitlist_entries').set({ invited_at: '2026-11-02T00:00:00.000Z' }).where('email', '=', emails[1]!).execute();
    const page = (variables: Record<string, unknown>) => call<{ waitlist: { entries: Entry[]; nextCursor: string | null } }>(WAITLIST, token, variables).then((b) => b.data!.waitlist);

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const next: { entries: Entry[]; nextCursor: string | null } = await page({ first: 3, after });
      seen.push(...next.entries.map((e) => e.email));
      after = next.nextCursor;
    } while (after);
    expect(seen).toEqual([...emails, 'zora.search@example.test']);

    expect((await page({ status: 'INVITED' })).entries.map((e) => e.email)).toEqual([emails[1]]);
    expect((await page({ status: 'WAITING' })).entries).toHaveLength(7);
    expect((await page({ day: '2026-11-03' })).entries.map((e) => e.email)).toEqual(['zora.search@example.test']);
    expect((await page({ search: '  ZORA.se ' })).entries.map((e) => e.email)).toEqual(['zora.search@example.test']);
    expect((await page({ search: 'zora.search@example.test', status: 'INVITED' })).entries).toEqual([]);
    // By address, paged too.
    const first = await page({ search: 'w0000', first: 2 });
    const second = await page({ search: 'w0000', first: 2, after: first.nextCursor });
    expect([...first.entries, ...second.entries].map((e) => e.email)).toEqual(emails.slice(0, 4));
    // A day that is no day and a forged cursor are ignored, not an error.
    expect((await page({ day: '2026-13-45', after: 'forged' })).entries).toHaveLength(8);
  });

  it('invites ticked people once: a code, an email and an audit record each; again is refused and sends nothing', async () => {
    const operator = await signedIn('operator');
    await waiting(3);
    const member = { email: `member-${randomUUID()}@example.test` };
    await insertMember(database.db, { email: member.email, status: 'active' });
    await insertWaitlistEntry(database.db, { email: member.email, joinedAt: '2026-11-05T00:00:00.000Z' });
    const list = (await call<{ waitlist: { entries: Entry[] } }>(WAITLIST, operator.token)).data!.waitlist.entries;
    const [a, b] = list;
    const memberRow = list.find((e) => e.email === member.email)!;
    expect(memberRow.isMember).toBe(true);

    const done = await call<{ waitlistInvite: { invited: string[]; userErrors: UserError[] } }>(INVITE, operator.token, { ids: [a!.id, b!.id, memberRow.id, 'no-such-id'] });
    expect(done.data!.waitlistInvite.invited).toEqual([a!.email, b!.email]);
    expect(done.data!.waitlistInvite.userErrors).toEqual([
      { code: 'ALREADY_MEMBER', field: memberRow.id, messageId: 'admin.waitlist.error.member' },
      { code: 'ENTRY_NOT_FOUND', field: 'no-such-id', messageId: 'admin.waitlist.error.notFound' },
    ]);
    const again = await call<{ waitlistInvite: { invited: string[]; userErrors: UserError[] } }>(INVITE, operator.token, { ids: [a!.id] });
    expect(again.data!.waitlistInvite).toEqual({ invited: [], userErrors: [{ code: 'ALREADY_INVITED', field: a!.id, messageId: 'admin.waitlist.error.alreadyInvited' }] });
    expect((await outboxRecipients()).sort()).toEqual([a!.email, b!.email].sort());
    const audit = await auditOf('waitlist.invited');
    // Named by their pseudonym, never the address (ADR 048).
    expect(audit.filter((r) => r.actor_email === operator.email).map((r) => r.target)).toEqual([privacySubject(a!.email, TEST_SECRET), privacySubject(b!.email, TEST_SECRET)]);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ before: { invitedAt: null }, after: { invitedAt: expect.any(String) } });

    const empty = await call<{ waitlistInvite: { userErrors: UserError[] } }>(INVITE, operator.token, { ids: [] });
    expect(empty.data!.waitlistInvite.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'ids', messageId: 'admin.waitlist.selection.empty' }]);
  });

  it('selects applicants the same way', async () => {
    const operator = await signedIn('owner');
    const applicant = await insertApplication(database.db, { createdAt: '2026-11-02T09:00:00.000Z' });
    const rows = (await call<{ applicants: { entries: Entry[] } }>(APPLICANTS, operator.token, { status: 'OPEN' })).data!.applicants.entries;
    expect(rows.map((r) => r.email)).toEqual([applicant]);
    const done = await call<{ applicantsSelect: { invited: string[] } }>(SELECT, operator.token, { ids: [rows[0]!.id, rows[0]!.id] });
    expect(done.data!.applicantsSelect.invited).toEqual([applicant]);
    expect((await call<{ applicants: { entries: Entry[] } }>(APPLICANTS, operator.token, { status: 'OPEN' })).data!.applicants.entries).toEqual([]);
    expect(await outboxRecipients()).toEqual([applicant]);
    expect((await auditOf('applicants.selected')).map((r) => r.target)).toContain(privacySubject(applicant, TEST_SECRET));
  });

  it('refuses bad input with a translated message and changes nothing', async () => {
    const { token } = await signedIn('operator');
    await waiting(2);
    for (const count of [0, -1, 10_001]) {
      const body = await call<{ waitlistRelease: { userErrors: UserError[] } }>(RELEASE, token, { count });
      expect(body.data!.waitlistRelease.userErrors, String(count)).toEqual([{ code: 'INVALID_FIELD', field: 'count', messageId: 'admin.waitlist.release.countInvalid' }]);
    }
    // 10^12 is not even a GraphQL Int: refused before anything runs.
    expect((await call(RELEASE, token, { count: 1e12 })).errors).toBeDefined();
    for (const dailyLimit of [-1, 100_001]) {
      const body = await call<{ waitlistSetCapacity: { userErrors: UserError[] } }>(CAPACITY, token, { dailyLimit });
      expect(body.data!.waitlistSetCapacity.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'dailyLimit', messageId: 'admin.waitlist.capacity.invalid' }]);
    }
    expect((await call<{ waitlistAdmission: { dailyLimit: number; releases: Release[] } }>(ADMISSION, token)).data!.waitlistAdmission).toMatchObject({ dailyLimit: 0, releases: [] });
    expect(await invitedEmails()).toEqual([]);
  });

  it('releases a batch in chunks, first come first served, with its progress readable at every step', async () => {
    const operator = await signedIn('operator');
    const emails = await waiting(130);
    const started = await call<{ waitlistRelease: { release: Release } }>(RELEASE, operator.token, { count: 120 });
    // The first chunk is written at once; the page reloaded now shows how far it is.
    expect(started.data!.waitlistRelease.release).toMatchObject({ requested: 120, invited: 50, running: true });
    const progress = await call<{ waitlistAdmission: { releases: (Release & { actorEmail: string })[] } }>(ADMISSION, operator.token);
    expect(progress.data!.waitlistAdmission.releases[0]).toMatchObject({ requested: 120, invited: 50, running: true, actorEmail: operator.email });

    await workReleases(admission());
    const finished = await call<{ waitlistAdmission: { releases: Release[]; admittedToday: number } }>(ADMISSION, operator.token);
    expect(finished.data!.waitlistAdmission.releases[0]).toMatchObject({ requested: 120, invited: 120, running: false });
    expect(await invitedEmails()).toEqual(emails.slice(0, 120));
    expect((await outboxRecipients()).length).toBe(120);
    // Working it again (a restart, another instance) changes nothing.
    await workReleases(admission());
    expect((await outboxRecipients()).length).toBe(120);

    // More than are left: it ends when nobody is waiting.
    const rest = await call<{ waitlistRelease: { release: Release } }>(RELEASE, operator.token, { count: 200 });
    expect(rest.data!.waitlistRelease.release).toMatchObject({ requested: 200, invited: 10, running: false });
    const none = await call<{ waitlistRelease: { userErrors: UserError[] } }>(RELEASE, operator.token, { count: 5 });
    expect(none.data!.waitlistRelease.userErrors).toEqual([{ code: 'NOBODY_WAITING', field: null, messageId: 'admin.waitlist.release.nobody' }]);
    expect((await auditOf('waitlist.release-started')).filter((r) => r.actor_email === operator.email)).toHaveLength(2);
  });

  it('never invites anyone twice when two instances work the same releases at once', async () => {
    const emails = await waiting(300);
    const actor = { adminId: null, email: 'operator@example.test', clientAddress: null };
    const one = await startRelease({ db: database.db }, actor, 170);
    const two = await startRelease({ db: database.db }, actor, 100);
    expect(one.ok && two.ok).toBe(true);
    const other = secondInstance();
    try {
      await Promise.all([workReleases(admission()), workReleases(admission(other.db)), workReleases(admission())]);
    } finally {
      await other.close();
    }
    const recipients = await outboxRecipients();
    expect(recipients).toHaveLength(270);
    expect(new Set(recipients).size).toBe(270);
    expect(await invitedEmails()).toEqual(emails.slice(0, 270));
    const releases = await database.db.selectFrom('waitlist_releases').select(['requested', 'invited', 'status']).orderBy('requested').execute();
    expect(releases.map((r) => [Number(r.requested), Number(r.invited), r.status])).toEqual([
      [100, 100, 'done'],
      [170, 170, 'done'],
    ]);
  });

  it('admits by itself up to the daily capacity (UTC), first come first served, counting what was invited today', async () => {
    const operator = await signedIn('operator');
    const emails = await waiting(20);
    const set = await call<{ waitlistSetCapacity: { admission: { dailyLimit: number; timeZone: string } } }>(CAPACITY, operator.token, { dailyLimit: 5 });
    expect(set.data!.waitlistSetCapacity.admission).toMatchObject({ dailyLimit: 5, timeZone: 'UTC' });
    const changed = (await auditOf('waitlist.capacity-changed')).filter((r) => r.actor_email === operator.email);
    expect(JSON.parse(changed[0]!.details)).toEqual({ before: { dailyLimit: 0 }, after: { dailyLimit: 5 } });

    const morning = new Date('2026-11-24T06:00:00.000Z');
    // Two invited by hand this morning count against today's capacity.
    await database.db.updateTable('waitlist_entries').set({ invited_at: '2026-11-24T00:30:00.000Z' }).where('email', 'in', [emails[10]!, emails[11]!]).execute();
    expect(await admitWithinCapacity(admission(), morning)).toBe(3);
    expect(await admitWithinCapacity(admission(), new Date('2026-11-24T23:59:59.000Z'))).toBe(0);
    expect((await invitedEmails()).slice(0, 3)).toEqual(emails.slice(0, 3));

    // The next day, two instances at once: five more, not ten.
    const other = secondInstance();
    const nextDay = new Date('2026-11-25T00:01:00.000Z');
    let admitted: number[];
    try {
      admitted = await Promise.all([admitWithinCapacity(admission(), nextDay, 2), admitWithinCapacity(admission(other.db), nextDay, 2)]);
    } finally {
      await other.close();
    }
    expect(admitted[0]! + admitted[1]!).toBe(5);
    expect(await invitedEmails()).toEqual([...emails.slice(0, 8), emails[10], emails[11]]);
    const auto = await auditOf('waitlist.admitted');
    expect(auto.filter((r) => r.actor_email === null).length).toBeGreaterThanOrEqual(8);
    // Off: nothing more.
    await call(CAPACITY, operator.token, { dailyLimit: 0 });
    expect(await admitWithinCapacity(admission(), new Date('2026-11-26T00:01:00.000Z'))).toBe(0);
  });

  it('runs in the background of every instance: the job finishes an interrupted release and fills the capacity', async () => {
    const emails = await waiting(80);
    const actor = { adminId: null, email: 'operator@example.test', clientAddress: null };
    // A release whose instance stopped after recording it (nothing invited yet).
    const release = await startRelease({ db: database.db }, actor, 60);
    expect(release.ok).toBe(true);
    await setCapacity({ db: database.db }, actor, 70);
    const logger = { info: () => undefined, error: (fields: object) => expect.fail(JSON.stringify(fields)) };
    // First only the releases (as after a restart): the interrupted one is finished.
    const releasesOnly = startAdmissionJob({ ...admission(), logger, releaseIntervalMs: 5, capacityIntervalMs: 3_600_000 });
    try {
      await expect.poll(async () => (await invitedEmails()).length).toBe(60);
    } finally {
      await releasesOnly.stop();
    }
    // Then both loops, as an instance runs them: the capacity adds what today still has room for.
    const job = startAdmissionJob({ ...admission(), logger, releaseIntervalMs: 5, capacityIntervalMs: 5 });
    try {
      await expect.poll(async () => (await invitedEmails()).length).toBe(70);
      // And not one more, however often it passes.
      await expect.poll(async () => (await auditOf('waitlist.admitted')).length).toBeGreaterThanOrEqual(10);
    } finally {
      await job.stop();
    }
    // The release's 60, then 10 more up to today's capacity of 70: the earliest 70, each once.
    expect(await invitedEmails()).toEqual(emails.slice(0, 70));
    expect(new Set(await outboxRecipients()).size).toBe(70);
    const row = await database.db.selectFrom('waitlist_releases').select(['invited', 'status']).executeTakeFirstOrThrow();
    expect([Number(row.invited), row.status]).toEqual([60, 'done']);
  });

  it('a batch and the capacity job at once: the batch is complete, the job never counts past the capacity', async () => {
    await waiting(100);
    const actor = { adminId: null, email: 'operator@example.test', clientAddress: null };
    await setCapacity({ db: database.db }, actor, 30);
    const release = await startRelease({ db: database.db }, actor, 40);
    if (!release.ok) throw new Error('not started');
    const other = secondInstance();
    const now = new Date();
    let admitted: number;
    try {
      [, admitted] = await Promise.all([workReleases(admission()), admitWithinCapacity(admission(other.db), now, 5)]);
    } finally {
      await other.close();
    }
    const row = await database.db.selectFrom('waitlist_releases').select(['invited', 'status']).where('id', '=', release.value.id).executeTakeFirstOrThrow();
    expect([Number(row.invited), row.status]).toEqual([40, 'done']);
    // Whichever went first, the job only filled what today still had room for when it counted.
    expect(admitted).toBeLessThanOrEqual(30);
    expect((await invitedEmails()).length).toBe(40 + admitted);
    expect(new Set(await outboxRecipients()).size).toBe(40 + admitted);
    expect(await admitWithinCapacity(admission(), now)).toBe(0);
  });
});
