/**
 * Webhooks (issue 24 §4, ADR 065) on SQLite and PostgreSQL, against a real receiver on a loopback
 * port that verifies every signature with the Standard Webhooks library: written with the change,
 * retried after 500s, time-outs and an hour of resets with the same webhook-id, in order per
 * application, an endpoint failing for a day disabled and the owners emailed, replays with the
 * same id, every configuration change and replay audited, and only the owner sees any of it.
 * No sleeps: the worker's clock is moved instead of waiting for a back-off.
 */
import { enqueueWebhookEvent } from '../src/webhooks/events.ts';
import { catalogs } from '@velvet/i18n/catalogs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signLobbyToken } from '@velvet/tokens/signed-token';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pruneDeliveredWebhooks } from '../src/jobs/retention.ts';
import { createLogger } from '../src/logger.ts';
import { renderOutboxEmail } from '../src/mail/email-templates.ts';
import { rotateCode } from '../src/services/rotate-code.ts';
import { refuseEndpointUrl } from '../src/webhooks/endpoints.ts';
import { isInternalAddress } from '../src/webhooks/post.ts';
import { DISABLE_AFTER_MS, WebhookWorker } from '../src/webhooks/worker.ts';
import { adminCalls } from './support/admin-calls.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { ACTIVATE, REGISTER, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';

const APPLY = 'mutation a($email: String!, $language: String, $country: String) { applyForMembership(email: $email, language: $language, country: $country) { accepted } }';
const DECLINE = 'mutation d($ids: [String!]!, $reasonId: String!) { applicantsDecline(ids: $ids, reasonId: $reasonId) { declined } }';
const CREATE =
  'mutation c($input: WebhookEndpointInput!) { webhookEndpointCreate(input: $input) { secret endpoint { id enabled eventTypes } userErrors { code field messageId } } }';
const UPDATE =
  'mutation u($id: String!, $input: WebhookEndpointInput!, $enabled: Boolean!) { webhookEndpointUpdate(id: $id, input: $input, enabled: $enabled) { endpoint { enabled disabledReason } userErrors { code } } }';
const ROTATE = 'mutation r($id: String!) { webhookSecretRotate(id: $id) { secret userErrors { code } } }';
const REPLAY =
  'mutation p($endpointId: String!, $deliveryId: String, $failed: Boolean, $from: String, $to: String) { webhookReplay(endpointId: $endpointId, deliveryId: $deliveryId, failed: $failed, from: $from, to: $to) { count userErrors { code } } }';
const JOIN = 'mutation j($token: String!, $language: String) { joinWaitlist(token: $token, language: $language) { outcome } }';
const SELECT = 'mutation s($ids: [String!]!) { applicantsSelect(ids: $ids) { invited } }';
const ENDPOINTS = '{ webhookEndpoints { id enabled disabledReason failingSince deliveryPage { deliveries { id eventType status attempts lastStatusCode lastError nextAttemptAt } } } }';
const AUDIT = '{ auditLog(first: 50) { entries { action target details } } }';

const ALL_TYPES = ['member.registered', 'member.activated', 'waitlist.joined', 'application.received', 'application.decided', 'code.quarantined'];

type Mode = 'ok' | 'fail' | 'hang' | 'reset';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The API's clock when the request arrived: the receiver's "now" for the signature's time check. */
  at: Date;
}

/** A webhook receiver on a loopback port: answers each request as the next mode says (the last one repeats). */
async function startReceiver(clock: () => Date) {
  const received: Received[] = [];
  const modes: Mode[] = ['ok'];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: clock() });
      const mode = modes.length > 1 ? modes.shift()! : modes[0]!;
      if (mode === 'hang') hanging.push(res);
      else if (mode === 'reset') req.socket.destroy();
      else res.writeHead(mode === 'ok' ? 204 : 500).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/velvet`,
    received,
    answer(...next: Mode[]) {
      modes.splice(0, modes.length, ...next);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Verifies a received request as a receiver would, with the library, at the moment it arrived. */
function verify(request: Received, secret: string): { type: string; timestamp: string; data: Record<string, unknown> } {
  const now = vi.spyOn(Date, 'now').mockReturnValue(request.at.getTime());
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };
  } finally {
    now.mockRestore();
  }
}

describe('endpoint addresses (ADR 026)', () => {
  it('are https without credentials; http and loopback only on a local instance', () => {
    expect(refuseEndpointUrl('https://crm.example/hooks', false)).toBeNull();
    expect(refuseEndpointUrl('http://crm.example/hooks', false)).toBe('admin.webhooks.error.https');
    expect(refuseEndpointUrl('https://user:pw@crm.example/hooks', false)).toBe('admin.webhooks.error.credentials');
    expect(refuseEndpointUrl('http://127.0.0.1:9000/hooks', false)).toBe('admin.webhooks.error.loopback');
    expect(refuseEndpointUrl('https://localhost/hooks', false)).toBe('admin.webhooks.error.loopback');
    expect(refuseEndpointUrl('http://127.0.0.1:9000/hooks', true)).toBeNull();
    expect(refuseEndpointUrl('ftp://crm.example/', true)).toBe('admin.webhooks.error.https');
    expect(refuseEndpointUrl('not a url', true)).toBe('admin.webhooks.error.url');
    // An internal network's address, written out, is refused on a deployment.
    expect(refuseEndpointUrl('https://10.0.0.7/hooks', false)).toBe('admin.webhooks.error.internal');
    expect(refuseEndpointUrl('https://192.168.1.20/hooks', false)).toBe('admin.webhooks.error.internal');
    expect(refuseEndpointUrl('https://[fd00::1]/hooks', false)).toBe('admin.webhooks.error.internal');
    expect(refuseEndpointUrl('https://93.184.215.14/hooks', false)).toBeNull();
  });

  it('internal addresses: private, loopback, link-local (the cloud metadata address), reserved, IPv4-mapped', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd12:3456::1', 'fe80::1', '::ffff:10.0.0.1', '[::1]']) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.215.14', '172.32.0.1', '8.8.8.8', '2001:db8::1', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', 'crm.example']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });
});

describe.each(ENGINES)('webhooks on %s', (engine) => {
  const { database, api } = engineApi(engine, { env: testEnv() });
  const { call, signedIn } = adminCalls(api, database);
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  const worker = () =>
    new WebhookWorker({ db: database.db, secret: TEST_SECRET, logger: createLogger(testEnv()), now: api.clock, random: () => 0, timeoutMs: 500, localInstance: true });

  /** An owner, a receiver and an endpoint hearing every type; the secret as shown once. */
  async function setUp(language?: string) {
    api.clock.fix('2026-11-20T10:00:00.000Z');
    const owner = await signedIn('owner', language);
    const receiver = await startReceiver(api.clock);
    receivers.push(receiver);
    const created = await call<{ webhookEndpointCreate: { secret: string; endpoint: { id: string; enabled: boolean } } }>(CREATE, owner.token, {
      input: { url: receiver.url, description: 'CRM', eventTypes: ALL_TYPES },
    });
    const { secret, endpoint } = created.data!.webhookEndpointCreate;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint.enabled).toBe(true);
    return { owner, receiver, secret, endpointId: endpoint.id };
  }

  const apply = async (email: string, language = 'de', country = 'DE') => {
    await call(APPLY, null, { email, language, country });
    return (await database.db.selectFrom('membership_applications').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  };
  const deliveries = () =>
    database.db.selectFrom('webhook_deliveries').select(['id', 'event_type', 'status', 'attempts', 'next_attempt_at', 'last_error', 'last_status_code']).orderBy('seq').execute();
  /** Moves the clock to the next attempt still ahead (at least by `atLeastMs`, by a minute when none is ahead) and runs the worker once. */
  async function step(run: WebhookWorker, atLeastMs = 0) {
    const now = api.clock();
    const due = await database.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('status', '=', 'pending')
      .where('next_attempt_at', '>', now.toISOString())
      .executeTakeFirst();
    const next = due?.next ? new Date(due.next).getTime() : now.getTime() + 60_000;
    api.clock.fix(new Date(Math.max(next, now.getTime() + atLeastMs)));
    return run.runOnce();
  }

  it('signs each event as the standard says, retries 500s and a time-out with the same webhook-id, and carries no address', async () => {
    const { receiver, secret } = await setUp();
    receiver.answer('fail', 'hang', 'fail', 'ok');
    const email = uniqueEmail('hooked').toLowerCase();
    const applicationId = await apply(email);
    const run = worker();

    expect(await run.runOnce()).toEqual({ delivered: 0, failed: 1 });
    expect(await deliveries()).toMatchObject([{ event_type: 'application.received', status: 'pending', attempts: 1, last_status_code: 500, last_error: 'http' }]);
    // Nothing is due before the back-off: 10 s after the first failure.
    api.clock.fix('2026-11-20T10:00:09.000Z');
    expect(await run.runOnce()).toEqual({ delivered: 0, failed: 0 });
    expect(await step(run)).toEqual({ delivered: 0, failed: 1 });
    expect(await deliveries()).toMatchObject([{ attempts: 2, last_status_code: null, last_error: 'timeout' }]);
    expect(await step(run)).toEqual({ delivered: 0, failed: 1 });
    expect(await step(run)).toEqual({ delivered: 1, failed: 0 });
    expect(await deliveries()).toMatchObject([{ status: 'delivered', attempts: 4, last_status_code: 204, last_error: null }]);

    expect(receiver.received).toHaveLength(4);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of receiver.received) {
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verify(request, secret)).toEqual({
        type: 'application.received',
        timestamp: '2026-11-20T10:00:00.000Z',
        data: { applicationId, country: 'DE', language: 'de' },
      });
      expect(request.body).not.toContain(email);
    }
    // The timestamp is the attempt's, so each attempt has a fresh signature.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-timestamp'])).size).toBe(4);
    // A signature made with another secret is refused by the library.
    expect(() => verify(receiver.received[0]!, `whsec_${Buffer.from('another secret of the same size!').toString('base64')}`)).toThrow();
  });

  it('on a deployment posts to nothing internal: neither an internal address nor a name that resolves to one', async () => {
    const { receiver, endpointId } = await setUp();
    await apply(uniqueEmail('internal'));
    const deployed = new WebhookWorker({ db: database.db, secret: TEST_SECRET, logger: createLogger(testEnv()), now: api.clock, random: () => 0, timeoutMs: 500, localInstance: false });
    // The receiver's address is 127.0.0.1, written out: refused before any connection.
    expect(await deployed.runOnce()).toEqual({ delivered: 0, failed: 1 });
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 1, last_status_code: null, last_error: 'unreachable' }]);
    // A name resolving to loopback: refused in the connection's own look-up.
    const byName = new URL(receiver.url);
    byName.hostname = 'localhost';
    await database.db.updateTable('webhook_endpoints').set({ url: byName.href }).where('id', '=', endpointId).execute();
    expect(await step(deployed)).toEqual({ delivered: 0, failed: 1 });
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 2, last_error: 'unreachable' }]);
    expect(receiver.received).toHaveLength(0);
    // Nothing is lost: on a local instance the same delivery reaches the loopback receiver.
    await database.db.updateTable('webhook_endpoints').set({ url: receiver.url }).where('id', '=', endpointId).execute();
    expect(await step(worker())).toEqual({ delivered: 1, failed: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  it('loses nothing while the receiver is down for an hour, and keeps each application’s order when it is back', async () => {
    const { owner, receiver, secret } = await setUp();
    receiver.answer('reset');
    const first = await apply(uniqueEmail('first'));
    const second = await apply(uniqueEmail('second'), 'pl', 'PL');
    const operator = await signedIn('operator');
    await call(DECLINE, operator.token, { ids: [first], reasonId: 'reason-country' });
    void owner;
    const run = worker();
    const start = api.clock().getTime();
    while (api.clock().getTime() - start < 60 * 60 * 1000) await step(run);
    const down = await deliveries();
    expect(down.map((d) => [d.event_type, d.status])).toEqual([
      ['application.received', 'pending'],
      ['application.received', 'pending'],
      ['application.decided', 'pending'],
    ]);
    // The decision waits for the first application's "received": never tried while that one fails.
    expect(down[2]!.attempts).toBe(0);
    expect(down[0]!.attempts).toBeGreaterThan(5);
    expect(down[0]!.last_error).toBe('unreachable');

    receiver.answer('ok');
    const before = receiver.received.length;
    for (let i = 0; i < 5 && (await deliveries()).some((d) => d.status !== 'delivered'); i++) await step(run);
    expect((await deliveries()).every((d) => d.status === 'delivered')).toBe(true);
    const back = receiver.received.slice(before).map((r) => verify(r, secret));
    expect(back.map((event) => [event.type, event.data.applicationId])).toEqual(
      expect.arrayContaining([
        ['application.received', first],
        ['application.received', second],
        ['application.decided', first],
      ]),
    );
    expect(back).toHaveLength(3);
    const order = back.filter((event) => event.data.applicationId === first).map((event) => event.type);
    expect(order).toEqual(['application.received', 'application.decided']);
    expect(back.find((event) => event.type === 'application.decided')!.data).toEqual({
      applicationId: first,
      decision: 'declined',
      reasonId: 'reason-country',
      country: 'DE',
      language: 'de',
    });
  });

  it('disables an endpoint failing for a day, tells every owner by email, and sends what waited once it is on again', async () => {
    // The owner reads the console in Polish: the email is written in Polish.
    const { owner, receiver, endpointId } = await setUp('pl');
    receiver.answer('fail');
    await apply(uniqueEmail('waits'));
    const run = worker();
    const start = api.clock().getTime();
    let endpoint = (await database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirstOrThrow());
    while (endpoint.enabled) {
      await step(run);
      endpoint = await database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirstOrThrow();
    }
    const failedFor = api.clock().getTime() - start;
    expect(failedFor).toBeGreaterThanOrEqual(DISABLE_AFTER_MS);
    expect(failedFor).toBeLessThan(DISABLE_AFTER_MS + 75 * 60 * 1000);
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'failing' });

    const mails = await database.db.selectFrom('email_outbox').select(['recipient', 'template', 'locale', 'payload']).where('template', '=', 'webhook-disabled').execute();
    expect(mails.map((m) => m.recipient)).toEqual([owner.email]);
    expect(mails[0]!.locale).toBe('pl');
    const mail = await renderOutboxEmail(mails[0]!, { publicUrl: 'https://club.example', secret: TEST_SECRET });
    expect(mail.subject).toBe(catalogs.pl['email.webhookDisabled.subject']);
    expect(mail.text).toContain('127.0.0.1');
    expect(mail.text).toContain('https://club.example/admin/webhooks');

    // Disabled: nothing is attempted, nothing is lost.
    const attempts = receiver.received.length;
    await step(run, 30 * 60 * 1000);
    expect(receiver.received).toHaveLength(attempts);
    // A day later the owner signs in again (sessions do not last a day).
    const back = await signedIn('owner');
    const shown = await call<{ webhookEndpoints: { disabledReason: string; deliveryPage: { deliveries: { status: string }[] } }[] }>(ENDPOINTS, back.token);
    expect(shown.data!.webhookEndpoints[0]).toMatchObject({ disabledReason: 'failing', deliveryPage: { deliveries: [{ status: 'pending' }] } });

    receiver.answer('ok');
    const on = await call(UPDATE, back.token, { id: endpointId, enabled: true, input: { url: receiver.url, description: 'CRM', eventTypes: ALL_TYPES } });
    expect(on).toEqual({ data: { webhookEndpointUpdate: { endpoint: { enabled: true, disabledReason: null }, userErrors: [] } } });
    // Sent at once, not at the end of the hour-long back-off it waited in.
    expect(await run.runOnce()).toEqual({ delivered: 1, failed: 0 });
  });

  it('replays one delivery, the failing ones, or a time range with the same webhook-id, and audits it; rotation takes effect at once', async () => {
    const { owner, receiver, secret, endpointId } = await setUp();
    await apply(uniqueEmail('replayed'));
    const run = worker();
    await run.runOnce();
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1 });

    api.clock.fix('2026-11-20T11:00:00.000Z');
    expect(await call(REPLAY, owner.token, { endpointId, deliveryId: delivery!.id })).toEqual({ data: { webhookReplay: { count: 1, userErrors: [] } } });
    const rotated = await call<{ webhookSecretRotate: { secret: string } }>(ROTATE, owner.token, { id: endpointId });
    const newSecret = rotated.data!.webhookSecretRotate.secret;
    expect(newSecret).not.toBe(secret);
    expect(await run.runOnce()).toEqual({ delivered: 1, failed: 0 });
    const [original, replayed] = receiver.received;
    expect(replayed!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(replayed!.body).toBe(original!.body);
    expect(verify(replayed!, newSecret).type).toBe('application.received');
    expect(() => verify(replayed!, secret)).toThrow();

    // A range: everything written that morning; the failing ones: none left.
    expect(await call(REPLAY, owner.token, { endpointId, from: '2026-11-20T09:00:00.000Z', to: '2026-11-20T10:30:00.000Z' })).toEqual({
      data: { webhookReplay: { count: 1, userErrors: [] } },
    });
    expect(await call(REPLAY, owner.token, { endpointId, failed: true })).toEqual({ data: { webhookReplay: { count: 0, userErrors: [] } } });
    expect(await call(REPLAY, owner.token, { endpointId, deliveryId: 'msg_unknown' })).toEqual({
      data: { webhookReplay: { count: 0, userErrors: [{ code: 'WEBHOOK_NOT_FOUND' }] } },
    });
    await run.runOnce();
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received).toHaveLength(3);

    // Kept a month after its last delivery (the console's history and replays), then pruned.
    expect(await pruneDeliveredWebhooks(database.db, new Date('2026-12-20T10:59:00.000Z'))).toBe(0);
    expect(await pruneDeliveredWebhooks(database.db, new Date('2026-12-20T11:01:00.000Z'))).toBe(1);

    const audit = await call<{ auditLog: { entries: { action: string; target: string; details: string }[] } }>(AUDIT, owner.token);
    // The log outlives the other tests' rows (append-only): this endpoint's entries.
    const hooks = audit
      .data!.auditLog.entries.map((e) => ({ ...e, details: JSON.parse(e.details) as Record<string, unknown> }))
      .filter((e) => e.details.endpointId === endpointId);
    expect(hooks.map((e) => e.action)).toEqual(['webhook.replayed', 'webhook.replayed', 'webhook.secret-rotated', 'webhook.replayed', 'webhook.created']);
    expect(hooks[3]).toMatchObject({ target: `webhook:${new URL(receiver.url).host}`, details: { endpointId, deliveryId: delivery!.id, count: 1 } });
    expect(JSON.stringify(hooks)).not.toContain('whsec_');
  });

  it('hears every step: registered, activated, joined the waiting list, applied, approved, code quarantined — ids, never addresses', async () => {
    const { receiver, secret } = await setUp();
    const operator = await signedIn('operator');
    const code = await insertCode(database.db);
    const member = validInput(code.code, { language: 'de' });
    const registered = await call<{ register: { memberId: string } }>(REGISTER, null, { input: member });
    const memberId = registered.data!.register.memberId;
    await call(ACTIVATE, null, { activationId: await latestActivationId(database.db, member.email) });
    const waiting = uniqueEmail('waiting');
    await call(JOIN, null, { token: await signLobbyToken({ email: waiting }, TEST_SECRET, 3600, api.clock()), language: 'sv' });
    const entryId = (await database.db.selectFrom('waitlist_entries').select('id').where('email', '=', waiting).executeTakeFirstOrThrow()).id;
    const applicant = uniqueEmail('approved');
    const applicationId = await apply(applicant, 'it', 'IT');
    await call(SELECT, operator.token, { ids: [applicationId] });
    expect((await rotateCode(database.db, code.code, api.clock())).ok).toBe(true);

    const run = worker();
    while ((await run.runOnce()).delivered > 0);
    const events = receiver.received.map((r) => verify(r, secret));
    // Other keys go out side by side; the member's two in their order.
    expect(events.filter((e) => e.type.startsWith('member.')).map((e) => e.type)).toEqual(['member.registered', 'member.activated']);
    const byType = (a: [string, unknown], b: [string, unknown]) => a[0].localeCompare(b[0]);
    const expected: [string, unknown][] = [
      ['member.registered', { memberId, status: 'pending', code: code.code, country: 'DE', language: 'de' }],
      ['member.activated', { memberId, country: 'DE', language: 'de' }],
      ['waitlist.joined', { entryId, language: 'sv' }],
      ['application.received', { applicationId, country: 'IT', language: 'it' }],
      ['application.decided', { applicationId, decision: 'approved', reasonId: null, country: 'IT', language: 'it' }],
      ['code.quarantined', { code: code.code }],
    ];
    expect(events.map((e): [string, unknown] => [e.type, e.data]).sort(byType)).toEqual(expected.sort(byType));
    const bodies = receiver.received.map((r) => r.body).join();
    for (const address of [member.email, waiting, applicant]) expect(bodies).not.toContain(address);
    expect(bodies).not.toContain(member.firstName);
  });

  it('lists an endpoint’s deliveries a page at a time, newest first, with a cursor only that endpoint follows', async () => {
    const { owner, endpointId } = await setUp();
    const second = await startReceiver(api.clock);
    receivers.push(second);
    const other = await call<{ webhookEndpointCreate: { endpoint: { id: string } } }>(CREATE, owner.token, { input: { url: second.url, eventTypes: ['code.quarantined'] } });
    const otherId = other.data!.webhookEndpointCreate.endpoint.id;
    for (let n = 0; n < 30; n++) await enqueueWebhookEvent(database.db, { type: 'code.quarantined', data: { code: `PAGE${n}` } }, api.clock());
    const PAGE = 'query p($after: String) { webhookEndpoints { id deliveryPage(first: 25, after: $after) { deliveries { id } nextCursor paged } } }';
    type Page = { id: string; deliveryPage: { deliveries: { id: string }[]; nextCursor: string | null; paged: boolean } };
    const pageOf = async (id: string, after?: string) =>
      (await call<{ webhookEndpoints: Page[] }>(PAGE, owner.token, { after })).data!.webhookEndpoints.find((e) => e.id === id)!.deliveryPage;
    const written = (await database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).orderBy('seq', 'desc').execute()).map((d) => d.id);
    expect(written).toHaveLength(30);

    const newest = await pageOf(endpointId);
    expect(newest.deliveries.map((d) => d.id)).toEqual(written.slice(0, 25));
    expect(newest).toMatchObject({ paged: false, nextCursor: expect.any(String) });
    const older = await pageOf(endpointId, newest.nextCursor!);
    expect(older).toEqual({ deliveries: written.slice(25).map((id) => ({ id })), nextCursor: null, paged: true });
    // The same cursor leaves the other endpoint on its newest page; anything else is the newest page.
    const otherPage = await pageOf(otherId, newest.nextCursor!);
    expect(otherPage).toMatchObject({ paged: false, nextCursor: expect.any(String) });
    expect(otherPage.deliveries).toHaveLength(25);
    for (const junk of ['', 'not-a-cursor', Buffer.from(`${endpointId}|x`).toString('base64url'), 'x'.repeat(300)]) {
      expect((await pageOf(endpointId, junk)).deliveries.map((d) => d.id)).toEqual(written.slice(0, 25));
    }
  });

  it('writes nothing when nobody listens, and only for the types an endpoint chose', async () => {
    api.clock.fix('2026-11-20T10:00:00.000Z');
    await apply(uniqueEmail('unheard'));
    expect(await deliveries()).toEqual([]);
    const owner = await signedIn('owner');
    const receiver = await startReceiver(api.clock);
    receivers.push(receiver);
    await call(CREATE, owner.token, { input: { url: receiver.url, eventTypes: ['application.decided'] } });
    await apply(uniqueEmail('still-unheard'));
    expect(await deliveries()).toEqual([]);
  });

  it('is the owner’s alone, and refuses addresses a deployment could not use', async () => {
    api.clock.fix('2026-11-20T10:00:00.000Z');
    const owner = await signedIn('owner');
    for (const role of ['operator', 'support', 'privacy', 'viewer'] as const) {
      const other = await signedIn(role);
      const read = await call(ENDPOINTS, other.token);
      expect(read.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', permission: 'webhooks.manage' });
      const write = await call(CREATE, other.token, { input: { url: 'https://crm.example/hooks', eventTypes: ALL_TYPES } });
      expect(write.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    }
    const refused = await call(CREATE, owner.token, { input: { url: 'https://user:secret@crm.example/hooks', eventTypes: ALL_TYPES } });
    expect(refused).toEqual({
      data: { webhookEndpointCreate: { secret: null, endpoint: null, userErrors: [{ code: 'INVALID_FIELD', field: 'url', messageId: 'admin.webhooks.error.credentials' }] } },
    });
    const noTypes = await call(CREATE, owner.token, { input: { url: 'https://crm.example/hooks', eventTypes: [] } });
    expect(noTypes).toMatchObject({ data: { webhookEndpointCreate: { userErrors: [{ field: 'eventTypes' }] } } });
    expect(await database.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual([]);
  });
});
