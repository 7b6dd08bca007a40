/**
 * The reference topology on this machine's loopback, from the repository's own deploy/ files
 * (issue 23 §3, ADR 064): nginx (the shared cache) → HAProxy → web ×2; browsers → HAProxy →
 * API ×2 → PgBouncer → PostgreSQL; one worker on a direct connection; a Redis of its own; a real
 * SMTP peer. Under a steady mix of invited visitors (landing, code check, registration,
 * activation) and a registration-status subscription, it kills and restarts the parts, then
 * prints what visitors saw and what the mail peer received, per fault.
 *
 * Needs the build, PostgreSQL at TEST_DATABASE_URL's server, and Debian's nginx, haproxy,
 * pgbouncer and redis-server (`.ci/run` installs them).
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createClient, type Client } from 'graphql-ws';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/cluster.mjs';
import { eventually, freePort, missingBuild } from './support.ts';

/** Visitors sending at once, each one request after the other. */
const VISITORS = 6;

type Kind = 'landing' | 'check' | 'register' | 'activate';
interface Sample {
  kind: Kind;
  ok: boolean;
  ms: number;
  detail?: string;
}

interface Mail {
  to: string;
  messageId: string;
  text: string;
}

// ── the parts ─────────────────────────────────────────────────────────────────────────────────
let cluster: Cluster;
/** Stops whatever the cluster's start got to, even when it never finished. */
let stopCluster: (() => Promise<void>) | undefined;
let smtp: SMTPServer;
/** While set, the mail peer takes this long over each message (an email "in flight"). */
let mailDelayMs = 0;
/** Messages the mail peer is taking in right now. */
let mailsInFlight = 0;
const mails: Mail[] = [];
/** What the mail peer met besides a client gone mid-message. */
const mailPeerErrors: Error[] = [];
let code = '';
let countryInput: { country: string; termsPkString: string; dataPolicyPkString: string };

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<{ status: number; data?: T; text: string }> {
  const response = await fetch(`${cluster.apiUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let data: T | undefined;
  try {
    data = (JSON.parse(text) as { data?: T }).data;
  } catch {
    data = undefined;
  }
  return { status: response.status, data, text };
}

const CHECK = `query check($registrationCode: String!) { registrationCodeDetails(registrationCode: $registrationCode) { invitorName countryOptions { isoCode termsPkString dataPolicyPkString } } }`;
const REGISTER = `mutation register($input: RegisterInput!) { register(input: $input) { outcome memberId userErrors { code } } }`;
const ACTIVATE = `mutation activate($activationId: String!) { activateAccount(activationId: $activationId) { outcome userErrors { code } } }`;

// ── the visitors ──────────────────────────────────────────────────────────────────────────────
/** Addresses whose registration was answered with success, and their member ids. */
const registered = new Map<string, string>();
const activated = new Set<string>();
/** When this address's recent activations were sent (the API's limit per client address: 20 a minute). */
const activations: number[] = [];
const ACTIVATIONS_PER_MINUTE = 15;
let serial = 0;
const run_ = randomBytes(3).toString('hex');

async function timed(kind: Kind, act: () => Promise<string | true>): Promise<Sample> {
  const started = performance.now();
  try {
    const outcome = await act();
    return { kind, ok: outcome === true, ms: performance.now() - started, ...(outcome === true ? {} : { detail: outcome }) };
  } catch (error) {
    return { kind, ok: false, ms: performance.now() - started, detail: String(error) };
  }
}

async function visit(step: number): Promise<Sample> {
  switch (step % 4) {
    case 0:
      return timed('landing', async () => {
        const response = await fetch(`${cluster.front}/de?rc=${code}`, { headers: { 'accept-language': 'de-DE' }, signal: AbortSignal.timeout(10_000) });
        const html = await response.text();
        return response.ok && html.includes('lang="de"') ? true : `HTTP ${response.status}`;
      });
    case 1:
      return timed('check', async () => {
        const answer = await graphql<{ registrationCodeDetails: { invitorName: string } }>(CHECK, { registrationCode: code });
        return answer.data?.registrationCodeDetails?.invitorName ? true : `HTTP ${answer.status} ${answer.text.slice(0, 120)}`;
      });
    case 2:
      return timed('register', async () => {
        const email = `cluster-${run_}-${serial++}@example.com`;
        const answer = await graphql<{ register: { outcome: string | null; memberId: string | null } }>(REGISTER, {
          input: { registrationCode: code, email, gender: 'FEMALE', firstName: 'Clara', lastName: 'Cluster', newsletter: false, termsAccepted: true, language: 'de', flow: 'DEFAULT', ...countryInput },
        });
        const outcome = answer.data?.register;
        if (outcome?.outcome !== 'FORM_FINISHED' || !outcome.memberId) return `HTTP ${answer.status} ${answer.text.slice(0, 160)}`;
        registered.set(email, outcome.memberId);
        return true;
      });
    default:
      return timed('activate', async () => {
        // The oldest registration whose email arrived and is not active yet. Every visitor here
        // comes from one address, which the API lets activate 20 times a minute: stay under it.
        const recent = activations.filter((at) => at > Date.now() - 60_000);
        const mail = mails.find((m) => registered.has(m.to) && !activated.has(m.to) && m.text.includes('activationId='));
        if (!mail || recent.length >= ACTIVATIONS_PER_MINUTE) return true;
        activations.splice(0, activations.length, ...recent, Date.now());
        activated.add(mail.to);
        const answer = await graphql<{ activateAccount: { outcome: string | null } }>(ACTIVATE, { activationId: activationIdOf(mail) });
        return answer.data?.activateAccount?.outcome ? true : `HTTP ${answer.status} ${answer.text.slice(0, 160)}`;
      });
  }
}

function activationIdOf(mail: Mail): string {
  const id = /activationId=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!id) throw new Error(`no activation link in the email to ${mail.to}`);
  return id;
}

/** Visitors on the site while `during` runs (the fault); their samples when it has ended. */
async function underLoad(during: (samples: Sample[]) => Promise<void>): Promise<Sample[]> {
  const samples: Sample[] = [];
  let going = true;
  const visitors = Array.from({ length: VISITORS }, async (_, v) => {
    for (let step = v; going; step += VISITORS) samples.push(await visit(step));
  });
  try {
    await during(samples);
  } finally {
    going = false;
    await Promise.all(visitors);
  }
  return samples;
}

/** At least `count` more requests answered, whatever their outcome: traffic, not time. */
async function requestsPass(samples: () => number, count: number): Promise<void> {
  const target = samples() + count;
  await eventually(`${count} more requests`, async () => (samples() >= target ? true : undefined), 60_000);
}

// ── the report ────────────────────────────────────────────────────────────────────────────────
interface Row {
  fault: string;
  requests: number;
  failures: number;
  p99: number;
  emails: { expected: number; sent: number; redelivered: number; duplicated: number };
}
const rows: Row[] = [];

function p99(samples: Sample[]): number {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0);
}

/** Once the worker has sent every queued email: the activation emails each address received. */
async function emailsSettled(): Promise<Row['emails']> {
  const activationMails = () => mails.filter((m) => registered.has(m.to) && m.text.includes('activationId='));
  await eventually('every registration’s activation email', async () => {
    const reached = new Set(activationMails().map((m) => m.to));
    return [...registered.keys()].every((email) => reached.has(email)) ? true : undefined;
  }, 90_000);
  const perAddress = new Map<string, Set<string>>();
  const received = activationMails();
  for (const mail of received) perAddress.set(mail.to, (perAddress.get(mail.to) ?? new Set()).add(mail.messageId));
  const distinct = [...perAddress.values()].reduce((sum, ids) => sum + ids.size, 0);
  return {
    expected: registered.size,
    sent: distinct,
    // The same message again (same Message-ID: the worker never heard the server's answer).
    redelivered: received.length - distinct,
    // A second, different activation email to one address.
    duplicated: [...perAddress.values()].filter((ids) => ids.size > 1).length,
  };
}

let before: Row['emails'] = { expected: 0, sent: 0, redelivered: 0, duplicated: 0 };
async function record(fault: string, samples: Sample[]): Promise<Row> {
  const emails = await emailsSettled();
  const row: Row = {
    fault,
    requests: samples.length,
    failures: samples.filter((s) => !s.ok).length,
    p99: p99(samples),
    emails: {
      expected: emails.expected - before.expected,
      sent: emails.sent - before.sent,
      redelivered: emails.redelivered - before.redelivered,
      duplicated: emails.duplicated - before.duplicated,
    },
  };
  before = emails;
  rows.push(row);
  return row;
}

// ── setup ─────────────────────────────────────────────────────────────────────────────────────
beforeAll(async () => {
  const missing = missingBuild();
  if (missing.length > 0) throw new Error(`build first (npm run build): missing ${missing.join(', ')}`);
  const smtpPort = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      mailsInFlight++;
      readAll(stream)
        .then(async (raw) => {
          // A slow peer: the message is in flight until it answers (the peer keeps what it was given).
          if (mailDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, mailDelayMs));
          const mail = await PostalMime.parse(raw);
          for (const to of session.envelope.rcptTo) mails.push({ to: to.address.toLowerCase(), messageId: mail.messageId ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch((error: Error) => callback(error))
        .finally(() => mailsInFlight--);
    },
  });
  // A worker killed mid-message resets its connection (the worker's kill -9 below): expected of a
  // mail peer; anything else it meets is kept and fails the test that saw it.
  smtp.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') mailPeerErrors.push(error);
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  cluster = await startCluster({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      PROOF_OF_WORK: 'false',
      RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '1000000',
      RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '1000000',
      RATE_LIMIT_REGISTRATIONS_PER_CODE: '1000000',
    },
    onStop: (stop) => (stopCluster = stop),
  });
  const created = await cluster.cli(['code', 'create', '--inviter', 'Cluster', '--balance', '1000000', '--json']);
  code = (JSON.parse(created.slice(created.indexOf('{'))) as { code: string }).code;
  const details = await graphql<{ registrationCodeDetails: { countryOptions: { isoCode: string; termsPkString: string; dataPolicyPkString: string }[] } }>(CHECK, { registrationCode: code });
  const country = details.data!.registrationCodeDetails.countryOptions.find((o) => o.isoCode === 'DE')!;
  countryInput = { country: country.isoCode, termsPkString: country.termsPkString, dataPolicyPkString: country.dataPolicyPkString };
}, 240_000);

afterAll(async () => {
  if (rows.length > 0) {
    const table = [
      'fault                               requests  failures  p99 ms  activation emails expected/sent/duplicated (same one again)',
      ...rows.map(
        (r) =>
          `${r.fault.padEnd(34)}  ${String(r.requests).padStart(8)}  ${String(r.failures).padStart(8)}  ${String(r.p99).padStart(6)}  ${r.emails.expected}/${r.emails.sent}/${r.emails.duplicated} (${r.emails.redelivered})`,
      ),
    ].join('\n');
    process.stdout.write(`\nThe cluster under faults (issue 23 §3):\n${table}\n\n`);
  }
  await stopCluster?.();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
}, 120_000);

// ── the faults ────────────────────────────────────────────────────────────────────────────────
describe('the cluster under faults', () => {
  it('runs steady: every request answered, every registration one email', async () => {
    const samples = await underLoad((live) => requestsPass(() => live.length, 60));
    const row = await record('steady', samples);
    expect(samples.filter((s) => !s.ok).map((s) => s.detail)).toEqual([]);
    expect(row.emails.duplicated).toBe(0);
  });

  it('kill -9 of one web and one API instance loses no registration that was answered with success', async () => {
    const samples = await underLoad(async (live) => {
      await requestsPass(() => live.length, 20);
      await Promise.all([cluster.kill('web1'), cluster.kill('api1')]);
      await requestsPass(() => live.length, 40);
      await Promise.all([cluster.launch('web1'), cluster.launch('api1')]);
      await Promise.all([cluster.inRotation('web1'), cluster.inRotation('api1')]);
      await requestsPass(() => live.length, 20);
    });
    const row = await record('kill -9 web1 + api1', samples);
    // Answered with success means written: every such address is a member with its one email.
    expect(row.emails.duplicated).toBe(0);
    expect(row.emails.sent).toBe(row.emails.expected);
    expect(row.emails.redelivered).toBe(0);
  });

  it('a rolling restart of every role with SIGTERM fails no request; a subscription resumes on another instance', async () => {
    // A visitor on "check your inbox": subscribed to their registration's state.
    const email = `cluster-${run_}-watcher@example.com`;
    const answer = await graphql<{ register: { memberId: string | null } }>(REGISTER, {
      input: { registrationCode: code, email, gender: 'FEMALE', firstName: 'Wanda', lastName: 'Watcher', newsletter: false, termsAccepted: true, language: 'de', flow: 'DEFAULT', ...countryInput },
    });
    const memberId = answer.data!.register.memberId!;
    registered.set(email, memberId);
    activated.add(email);
    const states: string[] = [];
    let connections = 0;
    const client: Client = createClient({
      url: `${cluster.apiUrl.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 1_000,
      shouldRetry: () => true,
      retryWait: () => new Promise((resolve) => setTimeout(resolve, 200)),
      on: { connected: () => connections++ },
    });
    const ended = new Promise<void>((resolve, reject) => {
      client.subscribe<{ registrationStatus: { state: string } }>(
        { query: 'subscription watch($memberId: String!) { registrationStatus(memberId: $memberId) { state } }', variables: { memberId } },
        { next: ({ data }) => void (data && states.push(data.registrationStatus.state)), error: reject, complete: resolve },
      );
    });
    await eventually('the subscription’s first state', async () => (states.length > 0 ? true : undefined));
    const samples = await underLoad(async (live) => {
      for (const name of ['web1', 'web2', 'api1', 'api2', 'worker']) {
        expect(await cluster.terminate(name), `${name} exits 0 after draining`).toBe(0);
        await cluster.launch(name);
        if (name !== 'worker') await cluster.inRotation(name);
        await requestsPass(() => live.length, 10);
      }
    });
    await record('rolling restart (SIGTERM)', samples);
    expect(samples.filter((s) => !s.ok).map((s) => `${s.kind}: ${s.detail}`)).toEqual([]);
    // Both API instances restarted: the subscription's socket was closed and opened again elsewhere.
    expect(connections).toBeGreaterThanOrEqual(2);
    const mail = await eventually('the watcher’s email', async () => mails.find((m) => m.to === email));
    await graphql(ACTIVATE, { activationId: activationIdOf(mail) });
    await ended;
    client.dispose();
    expect(states[0]).toBe('PENDING');
    expect(states.at(-1)).toBe('ACTIVE');
  });

  it('the worker killed while an email is being sent: every email delivered, none twice', async () => {
    const samples = await underLoad(async () => {
      mailDelayMs = 1_500;
      const sentBefore = mails.length;
      // An email is in flight: the peer has its DATA and takes its time to answer.
      await eventually('an email in flight', async () => (mailsInFlight > 0 ? true : undefined));
      await cluster.kill('worker');
      mailDelayMs = 0;
      await cluster.launch('worker');
      await eventually('the worker sending again', async () => (mails.length > sentBefore ? true : undefined));
    });
    const row = await record('worker kill -9 mid-send', samples);
    // The email the peer had taken in may come again (the worker never heard its answer), with the
    // same Message-ID: a receiver keeps one. No address gets two different emails, none gets none.
    expect(row.emails.duplicated).toBe(0);
    expect(row.emails.sent).toBe(row.emails.expected);
    expect(mailPeerErrors).toEqual([]);
  });

  it('PgBouncer and Redis restarted: nothing exits, everything recovers by itself', async () => {
    for (const [fault, engine] of [
      ['PgBouncer restarted', cluster.pgbouncer],
      ['Redis restarted', cluster.redis],
    ] as const) {
      const samples = await underLoad(async (live) => {
        await requestsPass(() => live.length, 10);
        await engine.stop();
        await engine.start();
        await requestsPass(() => live.length, 30);
      });
      await record(fault, samples);
      for (const name of cluster.names()) expect(cluster.process(name)?.child.exitCode, `${name} still runs`).toBeNull();
      // Recovered: the last requests all succeeded.
      expect(samples.slice(-VISITORS * 2).filter((s) => !s.ok).map((s) => s.detail)).toEqual([]);
    }
  });

  it('every origin stopped: the cache still serves the public pages it keeps', async () => {
    // Each cookieless visit draws one of 256 experiment buckets (ADR 053), and the cache asks the
    // origin which variation it gets before it looks the page up: ask until the origin has named
    // the variation of each bucket (one miss per bucket), one request at a time.
    let misses = 0;
    for (let asked = 0; misses < 256 && asked < 10_000; asked++) {
      const response = await fetch(`${cluster.front}/de`, { headers: { 'accept-language': 'de-DE' } });
      await response.text();
      if (response.headers.get('x-variation-cache-status') !== 'HIT') misses++;
    }
    expect(misses).toBe(256);
    await Promise.all(['web1', 'web2'].map((name) => cluster.terminate(name)));
    const answers: Sample[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      const response = await fetch(`${cluster.front}/de`, { headers: { 'accept-language': 'de-DE' } });
      const html = await response.text();
      const cache = response.headers.get('x-cache-status');
      const ok = response.status === 200 && html.includes('lang="de"') && (cache === 'HIT' || cache === 'STALE');
      answers.push({ kind: 'landing', ok, ms: performance.now() - started, ...(ok ? {} : { detail: `HTTP ${response.status} ${cache}` }) });
    }
    await record('every web origin stopped', answers);
    expect(answers.filter((a) => !a.ok).map((a) => a.detail)).toEqual([]);
  });
});
