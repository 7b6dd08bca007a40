import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../src/db/migrate.ts';
import { migrations } from '../src/db/migrations/registry.ts';
import { BOOLEAN_COLUMNS } from '../src/db/schema.ts';
import { DEMO_CODES, DEMO_MEMBERS, seedAdminUser, seedDemoData } from '../src/seed.ts';
import { verifyPassword } from '../src/lib/password.ts';
import { checkRegistrationCode } from '../src/services/check-registration-code.ts';
import { COUNTRIES } from '@velvet/i18n/locales';
import { ENGINES, engineDatabase } from './support/engines.ts';
import { TEST_SECRET } from './support/env.ts';
import { heldPlaces, holdsPlace } from '../src/domain/invitation-places.ts';
import { insertCode, insertMember } from './support/factories.ts';

describe.each(ENGINES)('database on %s', (engine) => {
  const database = engineDatabase(engine, { migrate: false });

  /** The tables of this test's own database (on PostgreSQL: its own schema; others share the database). */
  const ownTables = async () => {
    const tables = await database.db.introspection.getTables();
    if (engine !== 'postgres') return tables;
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
    return tables.filter((t) => t.schema === rows[0]?.schema);
  };

  describe('migrations', () => {
    it('apply once; running them again is a no-op', async () => {
      expect(await migrateToLatest(database.db)).toEqual({ applied: Object.keys(migrations) });
      expect(await migrateToLatest(database.db)).toEqual({ applied: [] });
    });

    it('can be undone and applied again', async () => {
      const tableNames = async () =>
        (await ownTables()).map((t) => t.name).filter((name) => !name.startsWith('kysely_')).sort();
      // The tables each migration creates (and, undone, brings back), newest first: undoing it
      // takes exactly those away.
      const createdBy: { created: string[]; restored?: string[] }[] = [
        { created: [] }, // 0023-admin-language: a column only
        { created: ['data_links', 'privacy_requests'] },
        { created: ['webhook_deliveries', 'webhook_endpoints'] },
        { created: ['application_declines', 'application_settings', 'decline_reasons', 'status_references'] },
        { created: ['lobby_links'] },
        { created: [] }, // 0018-waitlist-leave-reference: a column and an index only
        { created: ['code_signal_networks'] },
        { created: [] }, // 0016-outbox-inviter-name: a rewrite of stored payloads only
        { created: [] }, // 0015-audit-log-pseudonyms: a trigger and a rewrite only
        { created: ['admin_second_factor_challenges'] },
        { created: ['code_signal_counts', 'code_signal_sources'], restored: ['code_signals'] },
        { created: [] }, // 0012-admin-lists: indexes only
        { created: ['privacy_erasures'] },
        { created: ['admission_capacity', 'waitlist_releases'] },
        { created: [] }, // 0009-code-console: columns and indexes only
        { created: ['admin_recovery_codes', 'admin_security_policy', 'audit_log'] },
        { created: ['legal_documents_revision'] },
        { created: ['code_signals', 'held_registrations'] },
        { created: ['feature_overrides', 'feature_revision'] },
        { created: ['consent_records', 'funnel_events'] },
        { created: ['member_preferences', 'member_social_identities', 'membership_applications', 'waitlist_entries'] },
        { created: ['activations', 'admin_sessions', 'welcome_vouchers'] },
        { created: ['admin_users', 'consents', 'email_outbox', 'legal_documents', 'members', 'registration_codes'] },
      ];
      // A table a newer migration dropped is not there now.
      const dropped = createdBy.flatMap((m) => m.restored ?? []);
      let expected = await tableNames();
      expect(expected).toEqual(createdBy.flatMap((m) => m.created).filter((name) => !dropped.includes(name)).sort());
      for (const { created, restored = [] } of createdBy) {
        await migrateDown(database.db);
        expected = [...expected.filter((name) => !created.includes(name)), ...restored].sort();
        expect(await tableNames()).toEqual(expected);
      }
      expect(expected).toEqual([]);
      expect(await migrateToLatest(database.db)).toEqual({ applied: Object.keys(migrations) });
    });

    it('create the expected tables, and BOOLEAN_COLUMNS names every boolean column', async () => {
      const tables = await ownTables();
      const names = tables.map((t) => t.name).filter((name) => !name.startsWith('kysely_'));
      expect(names.sort()).toEqual([
        'activations',
        'admin_recovery_codes',
        'admin_second_factor_challenges',
        'admin_security_policy',
        'admin_sessions',
        'admin_users',
        'admission_capacity',
        'application_declines',
        'application_settings',
        'audit_log',
        'code_signal_counts',
        'code_signal_networks',
        'code_signal_sources',
        'consent_records',
        'consents',
        'data_links',
        'decline_reasons',
        'email_outbox',
        'feature_overrides',
        'feature_revision',
        'funnel_events',
        'held_registrations',
        'legal_documents',
        'legal_documents_revision',
        'lobby_links',
        'member_preferences',
        'member_social_identities',
        'members',
        'membership_applications',
        'privacy_erasures',
        'privacy_requests',
        'registration_codes',
        'status_references',
        'waitlist_entries',
        'waitlist_releases',
        'webhook_deliveries',
        'webhook_endpoints',
        'welcome_vouchers',
      ]);
      if (engine === 'postgres') {
        const booleans = tables.flatMap((t) => t.columns.filter((c) => c.dataType === 'bool').map((c) => c.name));
        expect([...new Set(booleans)].sort()).toEqual([...BOOLEAN_COLUMNS].sort());
      }
    });

    it('0007 keeps the places pending registrations held: until their current link expires, or for good without one', async () => {
      // Back to before 0007 (the newer ones go first).
      const since0007 = Object.keys(migrations).slice(Object.keys(migrations).indexOf('0007-held-places-and-legal-revision'));
      for (let i = 0; i < since0007.length; i++) await migrateDown(database.db);
      const { id: codeId } = await insertCode(database.db, { balance: 5 });
      const now = new Date('2026-11-24T12:00:00.000Z');
      const at = (hours: number) => new Date(now.getTime() + hours * 3_600_000).toISOString();
      const link = (memberId: string, expiresAt: string, superseded: boolean) => ({
        id: randomUUID(),
        member_id: memberId,
        token_hash: randomUUID(),
        reason: 'registration' as const,
        created_at: at(-200),
        expires_at: expiresAt,
        used_at: null,
        superseded_at: superseded ? at(-100) : null,
      });
      const live = await insertMember(database.db, { status: 'pending', registrationCodeId: codeId });
      const expired = await insertMember(database.db, { status: 'pending', registrationCodeId: codeId });
      const withoutLink = await insertMember(database.db, { status: 'pending', registrationCodeId: codeId });
      // An older, superseded link that expired does not give the place back; the current one decides.
      await database.db.insertInto('activations').values([link(live, at(-50), true), link(live, at(24), false), link(expired, at(-1), false)]).execute();

      expect(await migrateToLatest(database.db)).toEqual({ applied: since0007 });
      const held = await database.db.selectFrom('members').select(['id', 'place_held_until']).where('registration_code_id', '=', codeId).execute();
      expect(Object.fromEntries(held.map((m) => [m.id, m.place_held_until]))).toEqual({ [live]: at(24), [expired]: at(-1), [withoutLink]: null });
      expect(await heldPlaces(database.db, codeId, now)).toBe(2);
      expect(await holdsPlace(database.db, expired, now)).toBe(false);
    });

    it('0013 folds the leak watch\'s single observations into counts per 5 minutes and the sources last seen', async () => {
      const since0013 = Object.keys(migrations).slice(Object.keys(migrations).indexOf('0013-code-signal-counts'));
      for (let i = 0; i < since0013.length; i++) await migrateDown(database.db);
      const { id: codeId } = await insertCode(database.db, { balance: 5 });
      const signal = (kind: string, network: string | null, country: string | null, createdAt: string) =>
        sql`insert into code_signals (id, registration_code_id, kind, network, country, created_at) values (${randomUUID()}, ${codeId}, ${kind}, ${network}, ${country}, ${createdAt})`.execute(database.db);
      await signal('registration', '198.51.100.0/24', 'DE', '2026-11-24T12:01:00.000Z');
      await signal('registration', '198.51.100.0/24', 'PL', '2026-11-24T12:04:59.000Z');
      await signal('registration', '203.0.113.0/24', null, '2026-11-24T12:05:00.000Z');
      await signal('near_miss', null, null, '2026-11-24T12:02:00.000Z');

      expect(await migrateToLatest(database.db)).toEqual({ applied: since0013 });
      const counts = await database.db.selectFrom('code_signal_counts').select(['kind', 'bucket_start', 'count']).orderBy('kind').orderBy('bucket_start').execute();
      expect(counts.map((c) => ({ ...c, bucket_start: new Date(c.bucket_start).toISOString(), count: Number(c.count) }))).toEqual([
        { kind: 'near_miss', bucket_start: '2026-11-24T12:00:00.000Z', count: 1 },
        { kind: 'registration', bucket_start: '2026-11-24T12:00:00.000Z', count: 2 },
        { kind: 'registration', bucket_start: '2026-11-24T12:05:00.000Z', count: 1 },
      ]);
      const sources = await database.db.selectFrom('code_signal_sources').select(['dimension', 'value', 'last_seen']).orderBy('dimension').orderBy('value').execute();
      expect(sources.map((s) => ({ ...s, last_seen: new Date(s.last_seen).toISOString() }))).toEqual([
        { dimension: 'country', value: 'DE', last_seen: '2026-11-24T12:01:00.000Z' },
        { dimension: 'country', value: 'PL', last_seen: '2026-11-24T12:04:59.000Z' },
        { dimension: 'network', value: '198.51.100.0/24', last_seen: '2026-11-24T12:04:59.000Z' },
        { dimension: 'network', value: '203.0.113.0/24', last_seen: '2026-11-24T12:05:00.000Z' },
      ]);
    });

    it('publish one terms and one data-policy version for each of the 27 countries', async () => {
      const rows = await database.db.selectFrom('legal_documents').selectAll().execute();
      expect(rows).toHaveLength(COUNTRIES.length * 2);
      expect(rows).toContainEqual({
        country: 'SE',
        kind: 'data_policy',
        pk_string: 'data-policy-SE-2026-01',
        published_at: '2026-01-01T00:00:00.000Z',
      });
    });
  });

  describe('types', () => {
    it('reads booleans as booleans and timestamps as ISO strings', async () => {
      const { id } = await insertCode(database.db, {
        requiresValidityTimestamp: true,
        expiresAt: '2030-05-06T07:08:09.010Z',
      });
      const row = await database.db.selectFrom('registration_codes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.requires_validity_timestamp).toBe(true);
      expect(row.disabled).toBe(false);
      expect(row.expires_at).toBe('2030-05-06T07:08:09.010Z');
      const filtered = await database.db
        .selectFrom('registration_codes')
        .select('id')
        .where('requires_validity_timestamp', '=', true)
        .where('disabled', '=', false)
        .execute();
      expect(filtered).toEqual([{ id }]);
    });

    it('enforces the constraints: non-negative balance, upper-case code, lower-case email, known status', async () => {
      const { inviterId } = await insertCode(database.db);
      const base = {
        inviter_member_id: inviterId,
        expires_at: null,
        customization: null,
        landing_slug: null,
        requires_validity_timestamp: false,
        disabled: false,
        created_at: new Date().toISOString(),
      };
      await expect(
        database.db.insertInto('registration_codes').values({ ...base, id: 'neg', code: 'NEG-1', balance: -1 }).execute(),
      ).rejects.toThrow();
      await expect(
        database.db.insertInto('registration_codes').values({ ...base, id: 'low', code: 'lower', balance: 1 }).execute(),
      ).rejects.toThrow();
      await expect(
        sql`update members set email = ${'Upper@Example.test'} where id = ${inviterId}`.execute(database.db),
      ).rejects.toThrow();
      await expect(sql`update members set status = ${'ghost'} where id = ${inviterId}`.execute(database.db)).rejects.toThrow();
    });
  });

  describe('seed', () => {
    it('is skipped when SEED_DEMO is false', async () => {
      expect(await seedDemoData(database.db, { SEED_DEMO: false })).toEqual({ seeded: false, reason: 'disabled' });
      expect(await database.db.selectFrom('members').select('id').execute()).toEqual([]);
    });

    it('inserts the demo codes once; a second run changes nothing', async () => {
      expect(await seedDemoData(database.db, { SEED_DEMO: true })).toEqual({ seeded: true, codes: DEMO_CODES.length });
      const count = async () =>
        (await database.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
      const members = await count();
      expect(await seedDemoData(database.db, { SEED_DEMO: true })).toEqual({ seeded: false, reason: 'not-empty' });
      expect(await count()).toBe(members);
    });

    it('gives every demo code the state the README promises', async () => {
      await seedDemoData(database.db, { SEED_DEMO: true });
      const check = (registrationCode: string, slug?: string) =>
        checkRegistrationCode({ db: database.db, secret: TEST_SECRET, referrerBlocklist: [] }, { registrationCode, slug });
      expect(await check('WELCOME2026')).toMatchObject({ errors: [], inviterName: 'Sophie', customization: 'default' });
      expect(await check('vip-anna', 'vip')).toMatchObject({ errors: [], inviterName: 'Anna', customization: 'social-15-percent-mov' });
      expect((await check('EXPIRED2025')).errors).toEqual(['REGISTRATION_CODE_EXPIRED']);
      expect((await check('NOBALANCE')).errors).toEqual(['REGISTRATION_CODE_NO_BALANCE_LEFT']);
      expect((await check('FULLHOUSE')).errors).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
      expect((await check('BLOCKED')).errors).toEqual(['INVITER_INVALID']);
      expect((await check('LINKONLY')).errors).toEqual(['REGISTRATION_TIMESTAMP_MISSING']);
    });

    it('adds a pending and an active member on WELCOME2026, each with a consent', async () => {
      await seedDemoData(database.db, { SEED_DEMO: true });
      const members = await database.db
        .selectFrom('members as m')
        .innerJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
        .innerJoin('consents as c', 'c.member_id', 'm.id')
        .select(['m.email', 'm.status', 'rc.code', 'c.terms_pk_string'])
        .where('m.email', 'in', DEMO_MEMBERS.map((d) => d.email))
        .orderBy('m.email')
        .execute();
      expect(members).toEqual([
        { email: 'member@example.com', status: 'active', code: 'WELCOME2026', terms_pk_string: 'terms-DE-2026-01' },
        { email: 'pending@example.com', status: 'pending', code: 'WELCOME2026', terms_pk_string: 'terms-DE-2026-01' },
      ]);
    });

    it('creates the ADMIN_EMAIL admin only when both variables are set, and only once', async () => {
      expect(await seedAdminUser(database.db, {})).toBe('not-configured');
      expect(await seedAdminUser(database.db, { ADMIN_EMAIL: 'ops@example.test' })).toBe('not-configured');
      const env = { ADMIN_EMAIL: 'ops@example.test', ADMIN_PASSWORD: 'twelve chars or more' };
      expect(await seedAdminUser(database.db, env)).toBe('created');
      expect(await seedAdminUser(database.db, { ...env, ADMIN_PASSWORD: 'another long password' })).toBe('exists');
      const admins = await database.db.selectFrom('admin_users').select(['email', 'password_hash']).execute();
      expect(admins).toHaveLength(1);
      expect(await verifyPassword('twelve chars or more', admins[0]?.password_hash ?? '')).toBe(true);
    });
  });
});
