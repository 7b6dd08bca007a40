/**
 * The outbox worker against a real SMTP server on a loopback port, and the dev mailbox.
 * No sleeps: the worker's clock is moved instead of waiting for a back-off.
 */
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { catalogs } from '@velvet/i18n/catalogs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import type { Db } from '../src/db/connect.ts';
import { migrateDown, migrateToLatest } from '../src/db/migrate.ts';
import { migrations } from '../src/db/migrations/registry.ts';
import { mailboxDir, writeToMailbox } from '../src/mail/dev-mailbox.ts';
import { createOutboxSignal } from '../src/mail/outbox-signal.ts';
import { BACKOFF_BASE_MS, MAX_ATTEMPTS, OutboxWorker } from '../src/mail/outbox-worker.ts';
import { createDevMailboxTransport, createMailTransport, createSmtpTransport } from '../src/mail/transport.ts';
import type { MailTransport } from '../src/mail/transport.ts';
import { createTestApi } from './support/api.ts';
import { until } from './support/api-process.ts';
import { ENGINES, engineDatabase } from './support/engines.ts';
import { createTestDatabase } from './support/database.ts';
import { testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { REGISTER, latestActivationId, uniqueEmail, validInput } from './support/registration.ts';
import type { RegisterPayload } from './support/registration.ts';
import { closedPort, startSmtpPeer } from './support/smtp.ts';
import type { SmtpPeer } from './support/smtp.ts';

const HOUR_MS = 60 * 60 * 1000;

describe.each(ENGINES)('outbox on %s', (engine) => {
  const database = engineDatabase(engine);
  const env = testEnv({ PUBLIC_URL: 'https://club.example', MAIL_FROM: 'Velvet Rope <club@velvetrope.example>' });
  const transports: MailTransport[] = [];
  const peers: SmtpPeer[] = [];
  // Runs before the fixture's own clean-up (after-hooks run in reverse order).
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });

  const logger = () => createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  function smtp(url: string): MailTransport {
    const transport = createSmtpTransport(url);
    transports.push(transport);
    return transport;
  }
  async function peer(port = 0): Promise<SmtpPeer> {
    const started = await startSmtpPeer(port);
    peers.push(started);
    return started;
  }
  function worker(db: Db, transport: MailTransport, now?: () => Date) {
    return new OutboxWorker({ db, transport, env, logger: logger(), now, random: () => 0 });
  }

  async function registerVia(db: Db, fields: { language?: string; firstName?: string } = {}) {
    const { code } = await insertCode(db, { inviterFirstName: 'Sophie' });
    const api = await createTestApi({ env, db });
    try {
      const email = uniqueEmail();
      const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, {
        variables: { input: validInput(code, { email, ...fields }) },
      });
      expect(body.data?.register.outcome).toBe('FORM_FINISHED');
      return { email, activationId: await latestActivationId(db, email) };
    } finally {
      await api.close();
    }
  }

  const outboxRow = (recipient: string) =>
    database.db.selectFrom('email_outbox').selectAll().where('recipient', '=', recipient).executeTakeFirstOrThrow();

  it('delivers the activation email once over SMTP, with HTML and text, and marks it sent', async () => {
    const smtpPeer = await peer();
    const { email, activationId } = await registerVia(database.db, { firstName: 'Zoë' });
    const result = await worker(database.db, smtp(smtpPeer.url)).runOnce();
    expect(result).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    const [received] = await smtpPeer.waitFor(1);
    if (!received) throw new Error('nothing received');
    const row = await outboxRow(email);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, locked_until: null, last_error: null });
    expect(row.sent_at).not.toBeNull();

    const link = `https://club.example/registration/activateaccount?activationId=${activationId}`;
    expect(received.to).toEqual([email]);
    expect(received.from).toBe('club@velvetrope.example');
    expect(received.messageId).toBe(`<outbox-${row.id}@velvetrope>`);
    expect(received.subject).toBe(catalogs.en['email.activation.subject']);
    expect(received.text).toContain('Dear Zoë,');
    expect(received.text).toContain('Sophie has invited you to Velvet Rope');
    expect(received.text).toContain(link);
    expect(received.html).toMatch(/<html[^>]* lang="en"/);
    expect(received.html).toContain(`href="${link.replace('&', '&amp;')}"`);
    expect(received.html).toContain('Activate my account');
    expect(received.html).not.toContain('<script');
    // Nothing is left to send.
    expect(await worker(database.db, smtp(smtpPeer.url)).runOnce()).toEqual({ claimed: 0, sent: 0, retried: 0, failed: 0 });
    expect(smtpPeer.received).toHaveLength(1);
  });

  it('refuses a row whose payload is not its template\'s; 0016 rewrites the rows queued before the inviter\'s key was renamed (ADR 034), which then name the inviter', async () => {
    const smtpPeer = await peer();
    const { email } = await registerVia(database.db, { firstName: 'Zoë' });
    const row = await outboxRow(email);
    const { inviterName, ...rest } = JSON.parse(row.payload) as { inviterName: string };
    expect(inviterName).toBe('Sophie');
    const since0016 = Object.keys(migrations).slice(Object.keys(migrations).indexOf('0016-outbox-inviter-name'));
    for (let i = 0; i < since0016.length; i++) await migrateDown(database.db);
    // The row as the code before the rename wrote it: not an activation payload any more, so nothing is sent.
    await database.db.updateTable('email_outbox').set({ payload: JSON.stringify({ ...rest, invitorName: inviterName }) }).where('id', '=', row.id).execute();
    expect(await worker(database.db, smtp(smtpPeer.url)).runOnce()).toEqual({ claimed: 1, sent: 0, retried: 1, failed: 0 });
    expect((await outboxRow(email)).last_error).toMatch(/inviterName/);
    expect(smtpPeer.received).toHaveLength(0);

    expect(await migrateToLatest(database.db)).toEqual({ applied: since0016 });
    expect(JSON.parse((await outboxRow(email)).payload)).toEqual({ ...rest, inviterName });
    const later = () => new Date(Date.now() + 2 * BACKOFF_BASE_MS);
    expect(await worker(database.db, smtp(smtpPeer.url), later).runOnce()).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    const [received] = await smtpPeer.waitFor(1);
    expect(received?.text).toContain('Dear Zoë,');
    expect(received?.text).toContain('Sophie has invited you to Velvet Rope');
  });

  it('writes the German email in German, with the link under /de/', async () => {
    const smtpPeer = await peer();
    const { activationId } = await registerVia(database.db, { language: 'de', firstName: 'Jürgen' });
    await worker(database.db, smtp(smtpPeer.url)).runOnce();
    const [received] = await smtpPeer.waitFor(1);
    const de = catalogs.de;
    expect(de['email.activation.subject']).not.toBe(catalogs.en['email.activation.subject']);
    expect(received?.subject).toBe(de['email.activation.subject']);
    expect(received?.html).toMatch(/<html[^>]* lang="de"/);
    expect(received?.text).toContain((de['email.activation.greeting'] ?? '').replace('{firstName}', 'Jürgen'));
    expect(received?.text).toContain(de['email.activation.button']);
    expect(received?.text).toContain(`https://club.example/de/registration/activateaccount?activationId=${activationId}`);
    // A German long date, e.g. "29. November 2026".
    expect(received?.text).toMatch(/\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/);
  });

  it('keeps the row pending with a back-off while the SMTP peer is down, then delivers it exactly once', async () => {
    const port = await closedPort();
    const { email } = await registerVia(database.db);
    const transport = smtp(`smtp://127.0.0.1:${port}`);
    const startedAt = Date.now();
    expect(await worker(database.db, transport).runOnce()).toEqual({ claimed: 1, sent: 0, retried: 1, failed: 0 });
    const waiting = await outboxRow(email);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, locked_until: null, sent_at: null });
    expect(waiting.last_error).toMatch(/ECONNREFUSED/);
    expect(waiting.last_error).not.toContain(email);
    expect(Date.parse(waiting.next_attempt_at)).toBeGreaterThanOrEqual(startedAt + BACKOFF_BASE_MS - 1000);
    // Not due yet: a pass now does nothing.
    expect((await worker(database.db, transport).runOnce()).claimed).toBe(0);

    const smtpPeer = await peer(port);
    const later = () => new Date(Date.now() + HOUR_MS);
    expect(await worker(database.db, transport, later).runOnce()).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    expect(await worker(database.db, transport, later).runOnce()).toEqual({ claimed: 0, sent: 0, retried: 0, failed: 0 });
    expect(await smtpPeer.waitFor(1)).toHaveLength(1);
    expect(await outboxRow(email)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts with the back-off growing to at most an hour`, async () => {
    const port = await closedPort();
    const { email } = await registerVia(database.db);
    const transport = smtp(`smtp://127.0.0.1:${port}`);
    const delays: number[] = [];
    let clock = Date.now();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await worker(database.db, transport, () => new Date(clock)).runOnce();
      const row = await outboxRow(email);
      expect(row.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(result.retried).toBe(1);
        delays.push(Date.parse(row.next_attempt_at) - clock);
        clock = Date.parse(row.next_attempt_at);
      } else {
        expect(result.failed).toBe(1);
        expect(row.status).toBe('failed');
      }
    }
    expect(delays.slice(0, 4)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(Math.max(...delays)).toBe(HOUR_MS);
  });

  it('reclaims a row whose worker died while sending, once its claim has run out', async () => {
    const smtpPeer = await peer();
    const { email } = await registerVia(database.db);
    const row = await outboxRow(email);
    await database.db
      .updateTable('email_outbox')
      .set({ status: 'sending', attempts: 1, locked_until: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', row.id)
      .execute();
    expect((await worker(database.db, smtp(smtpPeer.url)).runOnce()).claimed).toBe(0);
    const afterClaim = () => new Date(Date.now() + 3 * 60_000);
    expect((await worker(database.db, smtp(smtpPeer.url), afterClaim).runOnce()).sent).toBe(1);
    const [received] = await smtpPeer.waitFor(1);
    // The same Message-ID as the lost attempt would have had: recipients' systems can drop the duplicate.
    expect(received?.messageId).toBe(`<outbox-${row.id}@velvetrope>`);
    expect(await outboxRow(email)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('keeps a slow delivery claimed past its claim time by renewing it, and a crashed one is due again within 30 s (issue 18 §7)', async () => {
    const smtpPeer = await peer();
    const { email } = await registerVia(database.db);
    const row = await outboxRow(email);
    // An SMTP server that takes its time: the send waits until the test lets it go.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const real = smtp(smtpPeer.url);
    const slow: MailTransport = { ...real, send: async (message) => held.then(() => real.send(message)) };
    const claimMs = 1_000;
    const first = new OutboxWorker({ db: database.db, transport: slow, env, logger: logger(), random: () => 0, claimMs });
    const running = first.runOnce();
    const claimed = await until('the first worker to claim the row', async () => {
      const current = await outboxRow(email);
      return current.status === 'sending' ? current : undefined;
    });
    // Renewed while the server holds the email: after more than a claim's time, no other worker can take it.
    await until('the claim to be renewed past its first term', async () => ((await outboxRow(email)).locked_until! > new Date(Date.parse(claimed.locked_until!) + claimMs).toISOString() ? true : undefined));
    expect((await worker(database.db, smtp(smtpPeer.url)).runOnce()).claimed).toBe(0);
    letGo();
    expect(await running).toMatchObject({ claimed: 1, sent: 1 });
    expect(await smtpPeer.waitFor(1)).toHaveLength(1);
    expect(await outboxRow(email)).toMatchObject({ id: row.id, status: 'sent', attempts: 1, locked_until: null });

    // The default claim: a worker that dies mid-send leaves its row to others within 30 s.
    const second = await registerVia(database.db);
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    const stuck = new OutboxWorker({ db: database.db, transport: { ...real, send: async (message) => hung.then(() => real.send(message)) }, env, logger: logger(), random: () => 0 });
    const stuckRun = stuck.runOnce();
    const sending = await until('the stuck worker to claim the row', async () => {
      const current = await outboxRow(second.email);
      return current.status === 'sending' ? current : undefined;
    });
    expect(Date.parse(sending.locked_until!) - Date.now()).toBeLessThanOrEqual(30_000);
    release();
    await stuckRun;
  });

  it('never sends a row twice with two workers on two connections to one database', async () => {
    const smtpPeer = await peer();
    const { code } = await insertCode(database.db, { balance: 30 });
    const api = await createTestApi({ env, db: database.db });
    try {
      await Promise.all(
        Array.from({ length: 20 }, () => graphql(api.yoga, REGISTER, { variables: { input: validInput(code) } })),
      );
    } finally {
      await api.close();
    }
    const second = database.connectAgain();
    try {
      const workers = [worker(database.db, smtp(smtpPeer.url)), worker(second.db, smtp(smtpPeer.url))];
      const drain = async (w: OutboxWorker) => {
        let sent = 0;
        for (;;) {
          const result = await w.runOnce();
          sent += result.sent;
          if (result.claimed === 0) return sent;
        }
      };
      const sent = await Promise.all([...workers, ...workers].map(drain));
      expect(sent.reduce((a, b) => a + b, 0)).toBe(20);
      const received = await smtpPeer.waitFor(20);
      expect(received).toHaveLength(20);
      expect(new Set(received.map((r) => r.messageId)).size).toBe(20);
      const rows = await database.db.selectFrom('email_outbox').select(['status', 'attempts']).execute();
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('wakes as soon as a registration commits (no poll needed) and stops cleanly', async () => {
    const dataEnv = testEnv({ PUBLIC_URL: 'https://club.example' });
    const signal = createOutboxSignal();
    const transport = createMailTransport(dataEnv);
    expect(transport.kind).toBe('dev-mailbox');
    const running = new OutboxWorker({ db: database.db, transport, env: dataEnv, logger: logger(), signal, pollIntervalMs: 10 * 60_000 });
    const idle = once(running, 'idle');
    running.start();
    await idle;
    const { code } = await insertCode(database.db);
    const api = await createTestApi({ env: dataEnv, db: database.db, outboxSignal: signal });
    try {
      const sent = once(running, 'sent');
      const email = uniqueEmail();
      await graphql(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
      const [outboxId] = (await sent) as [string];
      expect((await outboxRow(email)).id).toBe(outboxId);
      const files = readdirSync(mailboxDir(dataEnv.DATA_DIR));
      expect(files).toEqual([expect.stringMatching(new RegExp(`^\\d{8}T\\d{9}Z-${outboxId}\\.json$`))]);
    } finally {
      await running.stop();
      await api.close();
    }
    expect(running.running).toBe(false);
  });
});

describe('dev mailbox', () => {
  it('lists messages newest first, escaped, and serves each as HTML (no script) and JSON', async () => {
    const database = await createTestDatabase('sqlite');
    const env = testEnv();
    const api = await createTestApi({ env, db: database.db });
    try {
      const dir = mailboxDir(env.DATA_DIR);
      const base = { from: 'club@velvetrope.example', text: 'text', messageId: '<outbox-x@velvetrope>' };
      const older = await writeToMailbox(
        dir,
        { ...base, outboxId: 'a1', to: 'first@example.test', subject: 'First', html: '<p>first</p>' },
        new Date('2026-11-01T10:00:00.000Z'),
      );
      const newer = await writeToMailbox(
        dir,
        { ...base, outboxId: 'b2', to: '"<x>"@example.test', subject: '<script>alert(1)</script>', html: '<p>second</p>' },
        new Date('2026-11-02T10:00:00.000Z'),
      );
      const list = await api.yoga.fetch('http://localhost/dev/mailbox');
      expect(list.status).toBe(200);
      expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await list.text();
      expect(html).not.toContain('<script>');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html.indexOf(newer.id)).toBeLessThan(html.indexOf(older.id));
      expect(html).toContain(`href="/dev/mailbox/${older.id}"`);

      const one = await api.yoga.fetch(`http://localhost/dev/mailbox/${older.id}`);
      expect(await one.text()).toBe('<p>first</p>');
      expect(one.headers.get('content-security-policy')).toContain('sandbox allow-popups allow-popups-to-escape-sandbox');
      const raw = await api.yoga.fetch(`http://localhost/dev/mailbox/${older.id}.json`);
      expect(await raw.json()).toMatchObject({ id: older.id, to: 'first@example.test', subject: 'First', html: '<p>first</p>' });
      const index = await api.yoga.fetch('http://localhost/dev/mailbox/index.json');
      expect(((await index.json()) as { id: string }[]).map((m) => m.id)).toEqual([newer.id, older.id]);

      expect((await api.yoga.fetch('http://localhost/dev/mailbox/..%2Fapp-secret')).status).toBe(404);
      expect((await api.yoga.fetch('http://localhost/dev/mailbox/nope.json')).status).toBe(404);
    } finally {
      await api.close();
      await database.close();
    }
  });

  it('delivers through the dev transport into the mailbox', async () => {
    const env = testEnv();
    const transport = createDevMailboxTransport(env.DATA_DIR);
    await transport.send({ outboxId: 'c3', to: 'x@example.test', from: env.MAIL_FROM, subject: 'S', html: '<p>h</p>', text: 't' });
    const [file] = readdirSync(mailboxDir(env.DATA_DIR));
    expect(file).toMatch(/-c3\.json$/);
    expect(path.extname(file ?? '')).toBe('.json');
  });

  it('is served by the quick start’s production build, never by a deployment (ADR 026)', async () => {
    const database = await createTestDatabase('sqlite');
    const mailboxOf = async (env: ReturnType<typeof testEnv>) => {
      await writeToMailbox(mailboxDir(env.DATA_DIR), {
        outboxId: 'd4',
        to: 'x@example.test',
        from: 'f',
        subject: 's',
        html: '<p>h</p>',
        text: 't',
        messageId: 'm',
      });
      const api = await createTestApi({ env, db: database.db });
      try {
        return (await api.yoga.fetch('http://localhost/dev/mailbox')).status;
      } finally {
        await api.close();
      }
    };
    try {
      expect(await mailboxOf(testEnv({ NODE_ENV: 'production' }))).toBe(200);
      expect(await mailboxOf(testEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://club.velvetrope.example', SMTP_URL: 'smtp://mail.example:587' }))).toBe(404);
    } finally {
      await database.close();
    }
  });
});
