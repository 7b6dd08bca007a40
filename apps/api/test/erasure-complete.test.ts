/**
 * Erasure leaves nothing behind (issue 18, item 6; ADR 048's addendum), on SQLite and PostgreSQL:
 * the audit log names invited and selected people by their pseudonym (older entries rewritten by
 * migration 0015), cannot be rewritten by an insert (SQLite's REPLACE, an upsert on either
 * engine), the export hands over a held registration's stored submission and the erasure deletes
 * it, and the mailbox limit's counts of an erased address go from Redis and from memory.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { UserError } from '@velvet/validation/user-errors';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect.ts';
import { migrateDown, migrateToLatest } from '../src/db/migrate.ts';
import { migrations } from '../src/db/migrations/registry.ts';
import { recordAudit } from '../src/domain/audit-log.ts';
import { privacySubject } from '../src/domain/privacy-subject.ts';
import { createRateLimiters, DEFAULT_RATE_LIMITS } from '../src/rate-limit.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { erasePersonalData } from '../src/services/personal-data.ts';
import { admitWithinCapacity } from '../src/services/waitlist-admission.ts';
import { createTestApi, GENEROUS_LIMITS } from './support/api.ts';
import type { TestApi } from './support/api.ts';
import { createTestDatabase } from './support/database.ts';
import { ENGINES, RATE_LIMIT_STORES, engineApi, rateLimitFixture } from './support/engines.ts';
import { REDIS_URL, TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { insertApplication, insertWaitlistEntry } from './support/invitations.ts';
import { REGISTER, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = 'mutation l($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }';
const INVITE = 'mutation i($ids: [String!]!) { waitlistInvite(ids: $ids) { invited userErrors { code } } }';
const SELECT = 'mutation s($ids: [String!]!) { applicantsSelect(ids: $ids) { invited userErrors { code } } }';
const RELEASE = 'mutation r($count: Int!) { waitlistRelease(count: $count) { release { invited } userErrors { code } } }';
const CAPACITY = 'mutation c($dailyLimit: Int!) { waitlistSetCapacity(dailyLimit: $dailyLimit) { userErrors { code } } }';
const EXPORT = 'mutation e($email: String!) { personalDataExport(email: $email) { document userErrors { code } } }';
const ERASE = 'mutation d($email: String!) { personalDataErase(email: $email) { erasure { reference removed } userErrors { code } } }';
const APPLY = 'mutation a($email: String!) { applyForMembership(email: $email) { accepted userErrors { code } } }';

const PEOPLE_ACTIONS = ['waitlist.invited', 'waitlist.admitted', 'applicants.selected'] as const;

/** Signs an owner in (every permission: inviting, export, erasure). */
async function ownerToken(api: TestApi, db: Db): Promise<string> {
  const email = `owner-${randomUUID()}@example.test`;
  const created = await createAdminUser(db, { email, password: PASSWORD, role: 'owner' });
  if (!created.ok) throw new Error(created.errors.join());
  const { body } = await graphql<{ adminLogin: { token: string } }>(api.yoga, LOGIN, { variables: { email, password: PASSWORD } });
  return body.data!.adminLogin.token;
}

const auditRows = (db: Db) => db.selectFrom('audit_log').select(['seq', 'id', 'action', 'target', 'details', 'actor_email']).orderBy('seq').execute();

describe.each(ENGINES)('erasure leaves nothing behind on %s', (engine) => {
  const { database, api } = engineApi(engine);
  const db = () => database.db;
  const call = async <T>(query: string, token: string, variables: Record<string, unknown> = {}) =>
    (await graphql<T>(api.yoga, query, { variables, headers: { authorization: `Bearer ${token}` } })).body;

  it('names people invited from the waiting list or selected as applicants by their pseudonym, never the address, however they were invited', async () => {
    const token = await ownerToken(api, db());
    const early = '2026-01-01T08:00:00.000Z';
    const ticked = await insertWaitlistEntry(db(), { joinedAt: early });
    const applicant = await insertApplication(db());
    const idOf = async (table: 'waitlist_entries' | 'membership_applications', email: string) =>
      (await db().selectFrom(table).select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

    expect((await call<{ waitlistInvite: { invited: string[] } }>(INVITE, token, { ids: [await idOf('waitlist_entries', ticked)] })).data!.waitlistInvite.invited).toEqual([ticked]);
    expect((await call<{ applicantsSelect: { invited: string[] } }>(SELECT, token, { ids: [await idOf('membership_applications', applicant)] })).data!.applicantsSelect.invited).toEqual([applicant]);
    const released = await insertWaitlistEntry(db(), { joinedAt: early });
    expect((await call<{ waitlistRelease: { release: { invited: number } } }>(RELEASE, token, { count: 1 })).data!.waitlistRelease.release.invited).toBe(1);
    const admitted = await insertWaitlistEntry(db(), { joinedAt: early });
    expect((await call<{ waitlistSetCapacity: { userErrors: UserError[] } }>(CAPACITY, token, { dailyLimit: 1000 })).data!.waitlistSetCapacity.userErrors).toEqual([]);
    expect(await admitWithinCapacity({ db: db(), secret: TEST_SECRET })).toBe(1);

    const people = [ticked, applicant, released, admitted];
    const about = (await auditRows(db())).filter((r) => (PEOPLE_ACTIONS as readonly string[]).includes(r.action));
    const byTarget = new Map(about.map((r) => [r.target, r.action]));
    expect(people.map((email) => byTarget.get(privacySubject(email, TEST_SECRET)))).toEqual(['waitlist.invited', 'applicants.selected', 'waitlist.invited', 'waitlist.admitted']);
    const everything = JSON.stringify(await auditRows(db()));
    for (const email of people) expect(everything).not.toContain(email);

    // After each erasure the log still holds no address of theirs; the erasure's entry names the same reference.
    for (const email of people) {
      const erased = await call<{ personalDataErase: { erasure: { reference: string } | null } }>(ERASE, token, { email });
      expect(erased.data!.personalDataErase.erasure!.reference).toBe(privacySubject(email, TEST_SECRET));
    }
    const afterwards = JSON.stringify(await auditRows(db()));
    for (const email of people) expect(afterwards).not.toContain(email);

    // And the log refuses an address as the target of any action but those about an admin account.
    const actor = { adminId: null, email: null, clientAddress: null };
    await expect(recordAudit(db(), actor, { action: 'waitlist.invited', target: 'someone@example.test' }, new Date())).rejects.toThrow(/pseudonym/);
    await expect(recordAudit(db(), actor, { action: 'admin.created', target: `admin-${randomUUID()}@example.test` }, new Date())).resolves.toBeUndefined();
  });

  it('refuses an insert that would replace an entry: SQLite’s REPLACE and an upsert on either engine', async () => {
    const target = `code-${randomUUID()}`;
    await recordAudit(db(), { adminId: null, email: null, clientAddress: null }, { action: 'code.revoked', target }, new Date());
    const entry = await db().selectFrom('audit_log').select(['seq', 'id', 'at', 'action', 'target', 'details']).where('target', '=', target).executeTakeFirstOrThrow();
    const values = (seq: unknown, id: string) => sql`values (${seq}, ${id}, ${entry.at}, null, null, null, 'code.revoked', 'rewritten', '{}')`;
    const columns = sql`(seq, id, at, actor_admin_id, actor_email, client_address, action, target, details)`;
    const attempts = [
      sql`insert into audit_log ${columns} ${values(entry.seq, randomUUID())} on conflict (seq) do update set target = 'rewritten'`,
      sql`insert into audit_log (id, at, action, target, details) values (${entry.id}, ${entry.at}, 'code.revoked', 'rewritten', '{}') on conflict (id) do update set target = 'rewritten'`,
    ];
    if (engine === 'sqlite') {
      attempts.push(
        sql`insert or replace into audit_log ${columns} ${values(entry.seq, entry.id)}`,
        sql`insert or replace into audit_log ${columns} ${values(entry.seq, randomUUID())}`,
        sql`replace into audit_log (id, at, action, target, details) values (${entry.id}, ${entry.at}, 'code.revoked', 'rewritten', '{}')`,
      );
    }
    for (const attempt of attempts) {
      await expect(attempt.execute(db()), attempt.compile(db()).sql).rejects.toThrow(/append-only/);
    }
    expect(await db().selectFrom('audit_log').select(['seq', 'id', 'at', 'action', 'target', 'details']).where('seq', '=', entry.seq).executeTakeFirstOrThrow()).toEqual(entry);
    expect(await db().selectFrom('audit_log').select('seq').where('target', '=', 'rewritten').execute()).toEqual([]);
    // A new entry is written as before.
    await recordAudit(db(), { adminId: null, email: null, clientAddress: null }, { action: 'code.revoked', target }, new Date());
    expect(await db().selectFrom('audit_log').select('seq').where('target', '=', target).execute()).toHaveLength(2);
  });

  it("exports a held registration's stored submission, and the erasure deletes it", async () => {
    const token = await ownerToken(api, db());
    const code = await insertCode(db(), { balance: 3 });
    await db().updateTable('registration_codes').set({ quarantined_at: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', code.id).execute();
    const input = validInput(code.code, { lastName: 'Heldmann-Ærø', newsletter: true });
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input } });
    expect(body.data?.register.outcome).toBe('PENDING_REVIEW');
    const email = input.email.toLowerCase();

    const exported = await call<{ personalDataExport: { document: string } }>(EXPORT, token, { email });
    const doc = JSON.parse(exported.data!.personalDataExport.document) as { heldRegistrations: { code: string; submission: { input: Record<string, unknown>; social: unknown } }[] };
    expect(doc.heldRegistrations).toHaveLength(1);
    expect(doc.heldRegistrations[0]).toMatchObject({ code: code.code, language: 'en' });
    // Everything the form sent: names, gender, country, newsletter, the legal versions, the language.
    expect(doc.heldRegistrations[0]!.submission).toEqual({ input, social: null });

    const erased = await call<{ personalDataErase: { erasure: { removed: string } } }>(ERASE, token, { email });
    expect(JSON.parse(erased.data!.personalDataErase.erasure.removed)).toMatchObject({ heldRegistrations: 1 });
    expect(await db().selectFrom('held_registrations').select('id').where('email', '=', email).execute()).toEqual([]);
    const rows = await db().selectFrom('held_registrations').select('submission').execute();
    expect(JSON.stringify(rows)).not.toContain(input.lastName!);
  });

  it('0015 rewrites the addresses older entries named people by to their pseudonym; the append-only triggers stay in force', async () => {
    const own = await createTestDatabase(engine, { migrate: false });
    try {
      const since = Object.keys(migrations).slice(Object.keys(migrations).indexOf('0015-audit-log-pseudonyms'));
      expect(await migrateToLatest(own.db)).toEqual({ applied: Object.keys(migrations) });
      for (let i = 0; i < since.length; i++) await migrateDown(own.db);
      const at = '2026-11-24T12:00:00.000Z';
      const write = (action: string, target: string, details: object) =>
        sql`insert into audit_log (id, at, actor_admin_id, actor_email, client_address, action, target, details)
          values (${randomUUID()}, ${at}, null, 'operator@example.test', null, ${action}, ${target}, ${JSON.stringify(details)})`.execute(own.db);
      await write('waitlist.invited', 'anna.waiting@example.test', { before: { invitedAt: null }, after: { invitedAt: at } });
      await write('waitlist.admitted', 'carl.admitted@example.test', { before: { invitedAt: null }, after: { invitedAt: at, release: null } });
      await write('applicants.selected', 'bo.applicant@example.test', { note: 'bo.applicant@example.test', after: { selectedAt: at } });
      await write('admin.created', 'new.admin@example.test', { after: { role: 'support' } });
      const before = await auditRows(own.db);

      // Without the secret the pseudonyms cannot be made: refused, nothing changed.
      await expect(migrateToLatest(own.db)).rejects.toThrow(/3 audit entries .*APP_SECRET/);
      expect(await auditRows(own.db)).toEqual(before);

      expect(await migrateToLatest(own.db, { secret: TEST_SECRET })).toEqual({ applied: since });
      const after = await auditRows(own.db);
      const ref = (email: string) => privacySubject(email, TEST_SECRET);
      expect(after.map((r) => [r.action, r.target, JSON.parse(r.details) as unknown, r.actor_email])).toEqual([
        ['waitlist.invited', ref('anna.waiting@example.test'), { before: { invitedAt: null }, after: { invitedAt: at } }, 'operator@example.test'],
        ['waitlist.admitted', ref('carl.admitted@example.test'), { before: { invitedAt: null }, after: { invitedAt: at, release: null } }, 'operator@example.test'],
        ['applicants.selected', ref('bo.applicant@example.test'), { note: ref('bo.applicant@example.test'), after: { selectedAt: at } }, 'operator@example.test'],
        ['admin.created', 'new.admin@example.test', { after: { role: 'support' } }, 'operator@example.test'],
      ]);
      expect(after.map((r) => [r.seq, r.id])).toEqual(before.map((r) => [r.seq, r.id]));

      // Append-only again once the migration committed.
      await expect(own.db.updateTable('audit_log').set({ target: 'anna.waiting@example.test' }).execute()).rejects.toThrow(/append-only/);
      await expect(own.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
      if (engine === 'sqlite') {
        const first = after[0]!;
        await expect(sql`insert or replace into audit_log (seq, id, at, action, target, details) values (${first.seq}, ${first.id}, ${at}, 'waitlist.invited', 'anna.waiting@example.test', '{}')`.execute(own.db)).rejects.toThrow(/append-only/);
      }
      expect(await auditRows(own.db)).toEqual(after);
      // Undone and applied again: nothing left to rewrite, no secret needed.
      for (let i = 0; i < since.length; i++) await migrateDown(own.db);
      expect(await migrateToLatest(own.db)).toEqual({ applied: since });
    } finally {
      await own.close();
    }
  });
});

describe.each(RATE_LIMIT_STORES)("erasure forgets the mailbox limit's counts (%s)", (store, envOverrides) => {
  const { database, keyPrefix } = rateLimitFixture(store);

  it('deletes the counts kept under the erased address’s mailbox, so they do not outlive the person by an hour', async () => {
    const env = testEnv({ ...envOverrides });
    const limiters = createRateLimiters(env, { keyPrefix, rules: { ...GENEROUS_LIMITS, signUpMailbox: { ...DEFAULT_RATE_LIMITS.signUpMailbox, points: 2 } } });
    await limiters.ready();
    expect(limiters.store).toBe(store);
    const api = await createTestApi({ env, db: database.db, limiters });
    const redis = store === 'redis' ? new Redis(REDIS_URL) : null;
    try {
      const token = await ownerToken(api, database.db);
      const local = `mailbox-${randomUUID().slice(0, 8)}`;
      const spelled = (tag: number) => `${local}+${tag}@example.test`;
      const apply = async (email: string) => (await graphql<{ applyForMembership: { accepted: boolean } }>(api.yoga, APPLY, { variables: { email } })).body.data!.applyForMembership.accepted;
      const applied = async () => (await database.db.selectFrom('membership_applications').select('email').where('email', 'like', `${local}%`).execute()).map((r) => r.email).sort();
      const mailboxKeys = async () => (redis ? await redis.keys(`${keyPrefix}:signUpMailbox:*`) : []);

      // Two sign-ups of the mailbox are written; the third is answered as a success and not written.
      for (const tag of [1, 2, 3]) expect(await apply(spelled(tag))).toBe(true);
      expect(await applied()).toEqual([spelled(1), spelled(2)]);
      if (redis) {
        // One count for the mailbox, however it was spelled, named by a keyed hash: nobody who can
        // list Redis's keys reads the address.
        expect(await mailboxKeys()).toEqual([expect.stringMatching(new RegExp(`^${keyPrefix}:signUpMailbox:MEMBERSHIP_INTEREST:[\\w-]{22}$`))]);
        expect(await redis.keys(`${keyPrefix}*${local}*`)).toEqual([]);
      }

      const erased = await graphql<{ personalDataErase: { erasure: unknown; userErrors: UserError[] } }>(api.yoga, ERASE, {
        variables: { email: spelled(1) },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(erased.body.data!.personalDataErase.userErrors).toEqual([]);
      if (redis) expect(await mailboxKeys()).toEqual([]);
      // The count went with it (in memory too): the mailbox signs up again as if new.
      expect(await apply(spelled(4))).toBe(true);
      expect(await applied()).toEqual([spelled(2), spelled(4)]);
    } finally {
      await redis?.quit();
      await api.close();
      await limiters.close();
    }
  });

  if (store === 'redis') {
    it('refuses the erasure, deleting nothing, while Redis cannot be reached (the admin tries again)', async () => {
      const limiters = createRateLimiters({ REDIS_URL: 'redis://127.0.0.1:1' }, { keyPrefix, rules: GENEROUS_LIMITS });
      try {
        const email = await insertApplication(database.db, { email: uniqueEmail('unreachable').toLowerCase() });
        const deps = { db: database.db, secret: TEST_SECRET, now: new Date(), limiters };
        await expect(erasePersonalData(deps, { adminId: null, email: null, clientAddress: null }, { email })).rejects.toThrow();
        expect(await database.db.selectFrom('membership_applications').select('email').where('email', '=', email).execute()).toEqual([{ email }]);
      } finally {
        await limiters.close();
      }
    });
  }
});
