/**
 * Sends the outbox (docs/decisions/006). Each due row is claimed with a conditional UPDATE
 * (`… WHERE id = ? AND <still due>`), so of several workers — in one process or on several
 * instances — exactly one wins it. The claim lasts CLAIM_MS and the worker renews it every
 * HEARTBEAT_MS while the email is on its way (a slow server does not lose it), so a crashed
 * worker's row is due again within CLAIM_MS (issue 18 §7: it was two minutes). Delivery is
 * at-least-once: a crash between the SMTP server's acceptance and the "sent" mark sends the row
 * again, with the same Message-ID (`<outbox-ID@velvetrope>`), which receivers deduplicate.
 *
 * Failures back off exponentially (30 s · 2^(attempts−1), at most an hour, plus up to 20 %
 * jitter) and the row is `failed` after MAX_ATTEMPTS. The worker wakes as soon as a row is
 * written — in this process, or in an api process through Redis (OutboxSignal, ADR 062) — and
 * polls otherwise, for rows written elsewhere (every 250 ms in a worker process without Redis).
 * Logs carry outbox ids, never addresses.
 *
 * Faults (docs/decisions/027): up to CONCURRENCY emails are in flight at once, so a delivery
 * stuck on a hung server (until the transport's time-outs) does not hold the others. When a
 * send fails because the server cannot be reached, the worker probes it every
 * PROBE_INTERVAL_MS; once it answers, the rows that failed that way are due at once instead
 * of at their back-off, so the outbox drains within seconds of the server's return.
 */
import { EventEmitter } from 'node:events';
import type { Env } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { EmailOutboxRow } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { PollingLoop } from '../lib/polling-loop.ts';
import { companyFromEnv } from './company.ts';
import type { CompanySettings } from './company.ts';
import { MANAGE_DATA_TEMPLATES, renderOutboxEmail } from './email-templates.ts';
import { createDataLink } from '../domain/data-links.ts';
import type { OutboxSignal } from './outbox-signal.ts';
import type { MailTransport } from './transport.ts';

export const MAX_ATTEMPTS = 10;
const CLAIM_MS = 30 * 1000;
/** How often a claim in flight is renewed: several times within CLAIM_MS, so one slow database write does not lose it. */
const HEARTBEAT_SHARE = 4;
export const BACKOFF_BASE_MS = 30 * 1000;
export const BACKOFF_MAX_MS = 60 * 60 * 1000;
const POLL_INTERVAL_MS = 5_000;
/** Emails in flight at once (per worker). */
const CONCURRENCY = 4;
/** While the server is unreachable, how often the worker checks whether it is back. */
export const PROBE_INTERVAL_MS = 5_000;
/**
 * How long stop() waits for deliveries in flight: a hung server must not outlast the
 * process's shutdown grace. A delivery cut short stays claimed and is sent again after
 * CLAIM_MS (at-least-once, same Message-ID).
 */
export const STOP_WAIT_MS = 5_000;
const BATCH_SIZE = 20;

/** Error codes of nodemailer and node that say the server could not be reached or did not answer. */
const UNREACHABLE_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * True when a send failed because the server is unreachable, hung or shutting down (421),
 * not because it refused this message: such failures say nothing about the email.
 */
function isPeerFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return (typeof code === 'string' && UNREACHABLE_CODES.has(code)) || responseCode === 421;
}

/** Delay before attempt `attempts + 1`, given `attempts` failed ones; `random` in [0, 1) adds up to 20 %. */
export function backoffMs(attempts: number, random: number = Math.random()): number {
  const base = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.round(base * (1 + 0.2 * random));
}

/** An error text fit for the database and the logs: no email addresses, bounded length. */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[address]').slice(0, 500);
}

export interface OutboxWorkerOptions {
  db: Db;
  transport: MailTransport;
  /** With the COMPANY_* settings, when given: the imprint's company (ADR 060). */
  env: Pick<Env, 'APP_SECRET' | 'PUBLIC_URL' | 'MAIL_FROM'> & CompanySettings;
  logger: Logger;
  signal?: OutboxSignal;
  pollIntervalMs?: number;
  /** Emails in flight at once (default CONCURRENCY). */
  concurrency?: number;
  /** How often an unreachable server is probed (default PROBE_INTERVAL_MS). */
  probeIntervalMs?: number;
  /** How long stop() waits for deliveries in flight (default STOP_WAIT_MS). */
  stopWaitMs?: number;
  /** How long a claim lasts without renewal (default CLAIM_MS). */
  claimMs?: number;
  now?: () => Date;
  random?: () => number;
}

export interface OutboxRunResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
}

export interface OutboxWorkerEvents {
  sent: [outboxId: string];
  retry: [outboxId: string, nextAttemptAt: string];
  failed: [outboxId: string];
  /** After a pass of the loop found nothing due. */
  idle: [];
  /** The server answered a probe after failures; `released` rows are due again now. */
  recovered: [released: number];
}

export class OutboxWorker extends EventEmitter<OutboxWorkerEvents> {
  readonly #options: OutboxWorkerOptions;
  readonly #now: () => Date;
  readonly #concurrency: number;
  readonly #loop: PollingLoop;
  /** Deliveries under way, by outbox id. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Rows whose last attempt failed because the server was unreachable (released by a successful probe). */
  readonly #peerFailures = new Set<string>();
  #probe: ReturnType<typeof setTimeout> | undefined;

  constructor(options: OutboxWorkerOptions) {
    super();
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#concurrency = Math.max(1, options.concurrency ?? CONCURRENCY);
    this.#loop = new PollingLoop({
      name: 'outbox',
      logger: options.logger,
      signal: options.signal,
      pollIntervalMs: options.pollIntervalMs ?? POLL_INTERVAL_MS,
      pass: () => this.#pass(),
    });
  }

  get running(): boolean {
    return this.#loop.running;
  }

  /** Runs until stop(): claims due rows while fewer than `concurrency` are in flight, then waits for a signal, a finished delivery or the poll interval. */
  start(): void {
    this.#loop.start();
  }

  /** Finishes the emails being sent (waiting at most STOP_WAIT_MS), then stops. */
  async stop(): Promise<void> {
    clearTimeout(this.#probe);
    this.#probe = undefined;
    if (!(await this.#loop.stop())) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      Promise.all(this.#inFlight.values()).then(() => 'done' as const),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), this.#options.stopWaitMs ?? STOP_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (waited === 'timeout') {
      this.#options.logger.warn({ inFlight: [...this.#inFlight.keys()] }, 'outbox: stopped with deliveries in flight; they are retried after their claim expires');
    }
  }

  wake(): void {
    this.#loop.wake();
  }

  /** One pass of the loop: claims due rows while fewer than `concurrency` are in flight; true when it claimed some. */
  async #pass(): Promise<boolean> {
    const free = this.#concurrency - this.#inFlight.size;
    const claimed =
      free > 0
        ? await this.#claimAndStart(free).catch((error: unknown) => {
            this.#options.logger.error({ err: error }, 'outbox: pass failed');
            return 0;
          })
        : 0;
    if (claimed > 0) return true;
    if (this.#inFlight.size === 0) this.emit('idle');
    return false;
  }

  /** Claims up to `limit` due rows and starts their deliveries; a finished delivery wakes the loop. */
  async #claimAndStart(limit: number): Promise<number> {
    let claimed = 0;
    for (const id of await this.#dueIds(limit)) {
      const claim = await this.#claim(id);
      if (!claim) continue;
      claimed++;
      const delivery = this.#deliver(claim.row, claim.lockedUntil)
        .then(
          () => undefined,
          (error: unknown) => this.#options.logger.error({ err: error, outboxId: id }, 'outbox: delivery failed'),
        )
        .finally(() => {
          this.#inFlight.delete(id);
          this.wake();
        });
      this.#inFlight.set(id, delivery);
    }
    return claimed;
  }

  async #dueIds(limit: number): Promise<string[]> {
    const now = this.#now().toISOString();
    const rows = await this.#options.db
      .selectFrom('email_outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id).filter((id) => !this.#inFlight.has(id));
  }

  /** Claims every row due now and sends them, `concurrency` at a time; resolves when all are done. */
  async runOnce(): Promise<OutboxRunResult> {
    const result: OutboxRunResult = { claimed: 0, sent: 0, retried: 0, failed: 0 };
    const queue = await this.#dueIds(BATCH_SIZE);
    const lane = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const claim = await this.#claim(id);
        if (!claim) continue;
        result.claimed++;
        result[await this.#deliver(claim.row, claim.lockedUntil)]++;
      }
    };
    await Promise.all(Array.from({ length: this.#concurrency }, lane));
    return result;
  }

  /** After a failure that says the server is unreachable: probe it until it answers, then release the rows that failed that way. */
  #probeSoon(): void {
    if (this.#probe || !this.#options.transport.verify) return;
    const verify = this.#options.transport.verify.bind(this.#options.transport);
    this.#probe = setTimeout(() => {
      verify().then(
        async () => {
          const ids = [...this.#peerFailures];
          this.#peerFailures.clear();
          this.#probe = undefined;
          if (!this.#loop.running || ids.length === 0) return;
          const released = await this.#options.db
            .updateTable('email_outbox')
            .set({ next_attempt_at: this.#now().toISOString() })
            .where('id', 'in', ids)
            .where('status', '=', 'pending')
            .executeTakeFirst();
          this.#options.logger.info({ released: Number(released.numUpdatedRows) }, 'outbox: mail server reachable again, retrying now');
          this.emit('recovered', Number(released.numUpdatedRows));
          this.wake();
        },
        () => {
          this.#probe = undefined;
          if (this.#loop.running) this.#probeSoon();
        },
      ).catch((error: unknown) => {
        this.#probe = undefined;
        this.#options.logger.error({ err: error }, 'outbox: releasing rows after the server returned failed');
      });
    }, this.#options.probeIntervalMs ?? PROBE_INTERVAL_MS);
    this.#probe.unref();
  }

  async #claim(id: string): Promise<{ row: EmailOutboxRow; lockedUntil: string } | null> {
    const now = this.#now();
    const at = now.toISOString();
    const lockedUntil = new Date(now.getTime() + (this.#options.claimMs ?? CLAIM_MS)).toISOString();
    const { db } = this.#options;
    const updated = await db
      .updateTable('email_outbox')
      .set((eb) => ({ status: 'sending', locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', at)]),
          eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', at)]),
        ]),
      )
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    const row = await db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { row, lockedUntil };
  }

  /**
   * Renews the claim every CLAIM_MS / HEARTBEAT_SHARE while `sending` runs, each time only if it is
   * still ours (`locked_until` unchanged); resolves with the claim's last value once the renewals
   * have stopped, for the write that ends the delivery.
   */
  async #heartbeat(id: string, lockedUntil: string, sending: Promise<unknown>): Promise<string> {
    const claimMs = this.#options.claimMs ?? CLAIM_MS;
    let current = lockedUntil;
    let beat = Promise.resolve();
    const renew = async () => {
      const next = new Date(this.#now().getTime() + claimMs).toISOString();
      const renewed = await this.#options.db
        .updateTable('email_outbox')
        .set({ locked_until: next })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .where('locked_until', '=', current)
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) === 1) current = next;
    };
    const timer = setInterval(() => {
      beat = beat.then(renew).catch((error: unknown) => this.#options.logger.warn({ outboxId: id, err: error }, 'outbox: renewing a claim failed'));
    }, claimMs / HEARTBEAT_SHARE);
    timer.unref();
    try {
      await sending;
    } catch {
      // The delivery's own outcome is read by #deliver.
    } finally {
      clearInterval(timer);
    }
    await beat;
    return current;
  }

  async #deliver(row: EmailOutboxRow, claimedUntil: string): Promise<'sent' | 'retried' | 'failed'> {
    const { db, logger, transport, env } = this.#options;
    const sending = (async () => {
      // The footer's "manage my data" link (ADR 066): a fresh one for each email of the door to a person without an account.
      const dataReference = MANAGE_DATA_TEMPLATES.has(row.template) ? async () => (await createDataLink(db, row.recipient, this.#now())).reference : undefined;
      const rendered = await renderOutboxEmail(row, { publicUrl: env.PUBLIC_URL, secret: env.APP_SECRET, company: companyFromEnv(env), dataReference });
      await transport.send({ outboxId: row.id, to: row.recipient, from: env.MAIL_FROM, ...rendered });
    })();
    const lockedUntil = await this.#heartbeat(row.id, claimedUntil, sending);
    try {
      await sending;
    } catch (error) {
      const failure = describeFailure(error);
      const final = row.attempts >= MAX_ATTEMPTS;
      const nextAttemptAt = new Date(this.#now().getTime() + backoffMs(row.attempts, (this.#options.random ?? Math.random)())).toISOString();
      await db
        .updateTable('email_outbox')
        .set(final ? { status: 'failed', locked_until: null, last_error: failure } : { status: 'pending', locked_until: null, last_error: failure, next_attempt_at: nextAttemptAt })
        .where('id', '=', row.id)
        .where('status', '=', 'sending')
        .where('locked_until', '=', lockedUntil)
        .execute();
      if (!final && isPeerFailure(error) && this.#loop.running) {
        this.#peerFailures.add(row.id);
        this.#probeSoon();
      }
      if (final) {
        logger.error({ outboxId: row.id, attempts: row.attempts, error: failure }, 'outbox: giving up on email');
        this.emit('failed', row.id);
        return 'failed';
      }
      logger.warn({ outboxId: row.id, attempts: row.attempts, nextAttemptAt, error: failure }, 'outbox: send failed, will retry');
      this.emit('retry', row.id, nextAttemptAt);
      return 'retried';
    }
    await db
      .updateTable('email_outbox')
      .set({ status: 'sent', sent_at: this.#now().toISOString(), locked_until: null, last_error: null })
      .where('id', '=', row.id)
      .where('status', '=', 'sending')
      .where('locked_until', '=', lockedUntil)
      .execute();
    logger.info({ outboxId: row.id, template: row.template, attempts: row.attempts, transport: transport.kind }, 'outbox: email sent');
    this.emit('sent', row.id);
    return 'sent';
  }
}
