/**
 * The admin console's outbox and feature flags (issue 13, ADR 049) on SQLite and PostgreSQL:
 * who may read and change them (checked on the server, per role), the outbox's keyset pages and
 * its retry (all or none, audited), and flag changes refused with the CLI's own rules and
 * audited with before/after.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLES } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import type { UserError } from '@velvet/validation/user-errors';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadFeatureFile } from '@velvet/features/file';
import type { OutboxStatus } from '../src/db/schema.ts';
import { createFeatureHub } from '../src/features/feature-hub.ts';
import { createAdminUser } from '../src/services/create-admin-user.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { REDIS_URL, testEnv } from './support/env.ts';
import { graphql } from './support/graphql.ts';

const PASSWORD = 'correct horse battery staple';
const LOGIN = 'mutation login($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { token } }';
const OUTBOX = `query o($status: OutboxStatus, $first: Int, $after: String) {
  adminOutbox(status: $status, first: $first, after: $after) { emails { id template status attempts lastError } nextCursor } }`;
const RETRY = 'mutation r($ids: [String!]!) { adminRetryOutbox(ids: $ids) { retried userErrors { code field messageId } } }';
const FEATURES = '{ adminFeatures { key value source updatedAt experiment { variations weights coverage } } }';
const SET = `mutation s($key: String!, $value: String!) {
  adminSetFeature(key: $key, value: $value) { feature { key value source } userErrors { code field messageId } } }`;
const RESET = 'mutation r($key: String!) { adminResetFeature(key: $key) { feature { key value source } userErrors { code field messageId } } }';
const EXPERIMENT = `mutation e($key: String!, $variations: String!, $weights: String!, $coverage: String) {
  adminSetExperiment(key: $key, variations: $variations, weights: $weights, coverage: $coverage) {
    feature { key experiment { variations weights coverage } } userErrors { code field messageId } } }`;
const AUDIT = `query a($action: String, $target: String) { auditLog(action: $action, target: $target) { entries { actorEmail action target details } } }`;

interface Email { id: string; template: string; status: string; attempts: number; lastError: string | null }
type Errors = { errors?: readonly { extensions?: Record<string, unknown> }[] };

describe.each(ENGINES)('admin outbox and features on %s', (engine) => {
  const { database, api } = engineApi(engine);
  // The flags' overrides are not test data the shared fixture empties; the audit log is append-only (kept).
  afterEach(async () => {
    await database.db.deleteFrom('feature_overrides').execute();
  });
  const call = <T = Record<string, unknown>>(query: string, token: string | null, variables: Record<string, unknown> = {}) =>
    graphql<T>(api.yoga, query, { variables, headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.body);

  async function signedIn(role: AdminRole = 'owner') {
    const email = `${role}-${randomUUID()}@example.test`;
    const created = await createAdminUser(database.db, { email, password: PASSWORD, role });
    if (!created.ok) throw new Error(created.errors.join());
    const token = (await call<{ adminLogin: { token: string | null } }>(LOGIN, null, { email, password: PASSWORD })).data!.adminLogin.token;
    if (!token) throw new Error('sign-in failed');
    return { email, token };
  }

  let clock = Date.parse('2026-11-20T10:00:00.000Z');
  async function email(status: OutboxStatus, fields: { attempts?: number; lastError?: string | null } = {}) {
    const id = randomUUID();
    clock += 1000;
    await database.db
      .insertInto('email_outbox')
      .values({
        id,
        recipient: `someone-${id}@example.test`,
        template: 'activation',
        locale: 'de',
        payload: '{}',
        status,
        attempts: fields.attempts ?? (status === 'failed' ? 10 : 0),
        next_attempt_at: new Date(clock).toISOString(),
        locked_until: null,
        last_error: fields.lastError ?? (status === 'failed' ? 'Error: connect ECONNREFUSED [address]' : null),
        created_at: new Date(clock).toISOString(),
        sent_at: status === 'sent' ? new Date(clock).toISOString() : null,
      })
      .execute();
    return id;
  }
  const outbox = async (token: string, variables: Record<string, unknown> = {}) =>
    (await call<{ adminOutbox: { emails: Email[]; nextCursor: string | null } }>(OUTBOX, token, variables)).data!.adminOutbox;
  const auditOf = async (token: string, filter: Record<string, unknown>) =>
    (await call<{ auditLog: { entries: { actorEmail: string; action: string; target: string; details: string }[] } }>(AUDIT, token, filter)).data!.auditLog.entries;
  const refusal = (body: Errors) => body.errors?.[0]?.extensions?.code ?? null;

  it('lets every role read the outbox and the flags, and only owner and operator change them', async () => {
    const failed = await email('failed');
    for (const role of ADMIN_ROLES) {
      const { token } = await signedIn(role);
      const allowed = role === 'owner' || role === 'operator';
      expect(refusal(await call(OUTBOX, token)), role).toBeNull();
      expect(refusal(await call(FEATURES, token)), role).toBeNull();
      expect(refusal(await call(RETRY, token, { ids: [failed] })), role).toBe(allowed ? null : 'FORBIDDEN');
      expect(refusal(await call(SET, token, { key: 'promo-banner', value: 'true' })), role).toBe(allowed ? null : 'FORBIDDEN');
      expect(refusal(await call(RESET, token, { key: 'promo-banner' })), role).toBe(allowed ? null : 'FORBIDDEN');
      expect(refusal(await call(EXPERIMENT, token, { key: 'top-banner-copy', variations: 'control,members-first', weights: '0.5,0.5' })), role).toBe(
        allowed ? null : 'FORBIDDEN',
      );
    }
    expect(refusal(await call(OUTBOX, null))).toBe('UNAUTHENTICATED');
    expect(refusal(await call(FEATURES, null))).toBe('UNAUTHENTICATED');
  });

  it('pages through the outbox newest first, by status, without an address in sight', async () => {
    const { token } = await signedIn('viewer');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await email(i % 2 === 0 ? 'failed' : 'sent'));
    const first = await outbox(token, { first: 2 });
    expect(first.emails.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    const second = await outbox(token, { first: 2, after: first.nextCursor });
    expect(second.emails.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const third = await outbox(token, { first: 2, after: second.nextCursor });
    expect(third.emails.map((e) => e.id)).toEqual([ids[0]]);
    expect(third.nextCursor).toBeNull();

    const failedOnly = await outbox(token, { status: 'FAILED' });
    expect(failedOnly.emails.map((e) => e.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(failedOnly.emails[0]).toMatchObject({ status: 'FAILED', attempts: 10, lastError: 'Error: connect ECONNREFUSED [address]' });
    expect(JSON.stringify(await call(OUTBOX, token))).not.toContain('@example.test');
    // A cursor that is not ours is the first page.
    expect((await outbox(token, { first: 1, after: 'nonsense' })).emails.map((e) => e.id)).toEqual([ids[4]]);
  });

  it('retries failed emails all or none, and records each in the audit log with before and after', async () => {
    const operator = await signedIn('operator');
    const owner = await signedIn('owner');
    const a = await email('failed');
    const b = await email('pending', { attempts: 3, lastError: 'Error: timeout' });
    const sent = await email('sent');

    const refused = (await call<{ adminRetryOutbox: { retried: string[]; userErrors: UserError[] } }>(RETRY, operator.token, { ids: [a, sent] })).data!.adminRetryOutbox;
    expect(refused).toEqual({ retried: [], userErrors: [{ code: 'OUTBOX_NOT_RETRYABLE', field: 'ids', messageId: 'admin.outbox.error.notRetryable' }] });
    const unknown = (await call<{ adminRetryOutbox: { userErrors: UserError[] } }>(RETRY, operator.token, { ids: [a, randomUUID()] })).data!.adminRetryOutbox;
    expect(unknown.userErrors).toEqual([{ code: 'OUTBOX_NOT_FOUND', field: 'ids', messageId: 'admin.outbox.error.notFound' }]);
    for (const ids of [[], ['<script>'], Array.from({ length: 101 }, () => a)]) {
      const bad = (await call<{ adminRetryOutbox: { userErrors: UserError[] } }>(RETRY, operator.token, { ids })).data!.adminRetryOutbox;
      expect(bad.userErrors[0]).toMatchObject({ code: 'INVALID_FIELD', field: 'ids' });
    }
    expect((await outbox(operator.token, { status: 'FAILED' })).emails.map((e) => e.id)).toEqual([a]);
    expect(await auditOf(owner.token, { action: 'outbox.retried', target: a })).toEqual([]);

    const done = (await call<{ adminRetryOutbox: { retried: string[]; userErrors: UserError[] } }>(RETRY, operator.token, { ids: [a, b] })).data!.adminRetryOutbox;
    expect(done.userErrors).toEqual([]);
    expect(done.retried.sort()).toEqual([a, b].sort());
    const rows = await database.db.selectFrom('email_outbox').select(['id', 'status', 'attempts', 'next_attempt_at']).where('id', 'in', [a, b]).execute();
    for (const row of rows) expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    const audit = await auditOf(owner.token, { action: 'outbox.retried', target: a });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorEmail: operator.email, target: a });
    expect(JSON.parse(audit[0]!.details)).toEqual({ template: 'activation', before: { status: 'failed', attempts: 10 }, after: { status: 'pending', attempts: 0 } });
  });

  it('shows each flag as it is in force, changes it as the CLI does, and audits before and after', async () => {
    const operator = await signedIn('operator');
    const owner = await signedIn('owner');
    const features = async () => (await call<{ adminFeatures: { key: string; value: string; source: string; experiment: { variations: string[]; weights: number[]; coverage: number } | null }[] }>(FEATURES, operator.token)).data!.adminFeatures;
    expect((await features()).find((f) => f.key === 'top-banner-copy')).toMatchObject({
      value: '"control"',
      source: 'file',
      experiment: { variations: ['"control"', '"members-first"'], weights: [0.5, 0.5], coverage: 1 },
    });

    const set = (await call<{ adminSetFeature: { feature: { value: string; source: string } | null; userErrors: UserError[] } }>(SET, operator.token, { key: 'promo-banner', value: 'false' })).data!.adminSetFeature;
    expect(set).toEqual({ feature: { key: 'promo-banner', value: 'false', source: 'database' }, userErrors: [] });
    expect((await features()).find((f) => f.key === 'promo-banner')).toMatchObject({ value: 'false', source: 'database' });
    const [entry] = await auditOf(owner.token, { action: 'feature.set', target: 'promo-banner' });
    expect(entry).toMatchObject({ actorEmail: operator.email });
    expect(JSON.parse(entry!.details)).toEqual({ before: { defaultValue: true }, after: { defaultValue: false } });

    const experiment = (await call<{ adminSetExperiment: { feature: { experiment: unknown } | null; userErrors: UserError[] } }>(EXPERIMENT, operator.token, {
      key: 'onboarding-variant',
      variations: 'full,short',
      weights: '0.7,0.3',
      coverage: '0.25',
    })).data!.adminSetExperiment;
    expect(experiment).toEqual({ feature: { key: 'onboarding-variant', experiment: { variations: ['"full"', '"short"'], weights: [0.7, 0.3], coverage: 0.25 } }, userErrors: [] });
    const [experimentEntry] = await auditOf(owner.token, { action: 'experiment.set', target: 'onboarding-variant' });
    const details = JSON.parse(experimentEntry!.details) as { before: { rules: { coverage: number }[] }; after: { rules: { coverage: number; weights: number[] }[] } };
    expect(details.before.rules[0]?.coverage).toBe(0);
    expect(details.after.rules[0]).toMatchObject({ coverage: 0.25, weights: [0.7, 0.3] });

    const reset = (await call<{ adminResetFeature: { feature: { value: string; source: string } | null } }>(RESET, operator.token, { key: 'promo-banner' })).data!.adminResetFeature;
    expect(reset.feature).toEqual({ key: 'promo-banner', value: 'true', source: 'file' });
    const [resetEntry] = await auditOf(owner.token, { action: 'feature.reset', target: 'promo-banner' });
    expect(JSON.parse(resetEntry!.details)).toEqual({ before: { defaultValue: false }, after: { defaultValue: true } });
    await call(RESET, operator.token, { key: 'onboarding-variant' });
  });

  it('reaches a running instance as a CLI change does: its next revision check serves the new payload', async () => {
    const { token } = await signedIn('operator');
    const hub = createFeatureHub({ db: database.db, file: loadFeatureFile(), intervalMs: 3_600_000 });
    try {
      expect((await hub.payload()).features['promo-banner']).toEqual({ defaultValue: true });
      const received = new Promise((resolve) => hub.subscribe(resolve));
      await call(SET, token, { key: 'promo-banner', value: 'false' });
      await hub.check();
      expect(await received).toMatchObject({ features: { 'promo-banner': { defaultValue: false } } });
    } finally {
      await hub.close();
    }
  });

  // The CLI's refusals (test/feature-cli.test.ts), field by field, with the message a person reads.
  it.each([
    [SET, { key: 'nope-nope', value: 'true' }, { code: 'FEATURE_NOT_FOUND', field: 'key', messageId: 'admin.features.error.unknown' }],
    [SET, { key: 'Not A Key', value: 'true' }, { code: 'INVALID_FIELD', field: 'key', messageId: 'admin.features.error.key' }],
    [SET, { key: 'show-onboarding', value: 'yes' }, { code: 'INVALID_FIELD', field: 'value', messageId: 'admin.features.error.json' }],
    [SET, { key: 'show-onboarding', value: '"yes"' }, { code: 'INVALID_FIELD', field: 'value', messageId: 'admin.features.error.kind' }],
    [EXPERIMENT, { key: 'top-banner-copy', variations: 'a,b', weights: '0.5,0.6' }, { code: 'INVALID_FIELD', field: 'weights', messageId: 'admin.features.error.weightSum' }],
    [EXPERIMENT, { key: 'top-banner-copy', variations: 'a,b', weights: '0.5' }, { code: 'INVALID_FIELD', field: 'weights', messageId: 'admin.features.error.weightCount' }],
    [EXPERIMENT, { key: 'top-banner-copy', variations: 'a,b', weights: '0.5,0.5', coverage: '2' }, { code: 'INVALID_FIELD', field: 'coverage', messageId: 'admin.features.error.coverage' }],
    [EXPERIMENT, { key: 'top-banner-copy', variations: 'a,b', weights: 'x,y' }, { code: 'INVALID_FIELD', field: 'weights', messageId: 'admin.features.error.weights' }],
    [EXPERIMENT, { key: 'top-banner-copy', variations: 'a', weights: '1' }, { code: 'INVALID_FIELD', field: 'variations', messageId: 'admin.features.error.variationCount' }],
    [EXPERIMENT, { key: 'top-banner-copy', variations: 'a,a', weights: '0.5,0.5' }, { code: 'INVALID_FIELD', field: 'variations', messageId: 'admin.features.error.variationsDiffer' }],
    [EXPERIMENT, { key: 'show-onboarding', variations: 'a,b', weights: '0.5,0.5' }, { code: 'INVALID_FIELD', field: 'variations', messageId: 'admin.features.error.kind' }],
  ])('refuses bad input as the CLI does, and changes nothing (%#)', async (mutation, variables, expected) => {
    const { token } = await signedIn('operator');
    const audited = async () => (await database.db.selectFrom('audit_log').select('seq').where('action', 'in', ['feature.set', 'experiment.set']).execute()).length;
    const before = await audited();
    const body = await call<Record<string, { feature: unknown; userErrors: UserError[] }>>(mutation, token, variables);
    const payload = Object.values(body.data!)[0]!;
    expect(payload).toEqual({ feature: null, userErrors: [expected] });
    expect(await database.db.selectFrom('feature_overrides').select('key').execute()).toEqual([]);
    expect(await audited()).toBe(before);
  });
});


describe('a flag changed in the console, with Redis', () => {
  // A prefix of its own: the announcement channel and the rate limiters' keys, deleted afterwards.
  const prefix = `velvet-test-${randomUUID()}:`;
  const { database, api } = engineApi('sqlite', { env: testEnv({ REDIS_URL, REDIS_PREFIX: prefix }) });
  afterAll(async () => {
    await database.db.deleteFrom('feature_overrides').execute();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('is announced to every instance at once, as `feature set` announces it', async () => {
    const email = `operator-${randomUUID()}@example.test`;
    await createAdminUser(database.db, { email, password: PASSWORD, role: 'operator' });
    const login = await graphql<{ adminLogin: { token: string } }>(api.yoga, LOGIN, { variables: { email, password: PASSWORD } });
    // An instance that would not look at the revision for an hour: only the announcement can reach it.
    const hub = createFeatureHub({ db: database.db, file: loadFeatureFile(), redisUrl: REDIS_URL, prefix, intervalMs: 3_600_000 });
    try {
      await hub.ready();
      await hub.payload();
      const received = new Promise((resolve) => hub.subscribe(resolve));
      await graphql(api.yoga, SET, { variables: { key: 'show-onboarding', value: 'false' }, headers: { authorization: `Bearer ${login.body.data!.adminLogin.token}` } });
      expect(await received).toMatchObject({ features: { 'show-onboarding': { defaultValue: false } } });
    } finally {
      await hub.close();
    }
  });
});
