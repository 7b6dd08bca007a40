/**
 * Sends the outbox (docs/decisions/006). Each due row is claimed with a conditional UPDATE
 * (`… WHERE id = ? AND <still due>`), so of several workers — in one process or on several
 * instances — exactly one wins it; the claim lasts CLAIM_MS, after which a crashed worker's
 * row is due again. Delivery is at-least-once: a crash between the SMTP server's acceptance
 * and the "sent" mark sends the row again, with the same Message-ID (`<outbox-ID@velvetrope>`).
 *
 * Failures back off exponentially (30 s · 2^(attempts−1), at most an hour, plus up to 20 %
 * jitter) and the row is `failed` after MAX_ATTEMPTS. The worker wakes as soon as this
 * process writes a row (OutboxSignal) and polls otherwise, for rows written elsewhere.
 * Logs carry outbox ids, never addresses.
 */
import { EventEmitter } from 'node:events';
import { isLocale } from '@velvet/i18n/locales';
import type { Env } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { EmailOutboxRow } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { activationUrl } from '../services/activation-links.ts';
import { invitationUrl } from '../services/personal-invitations.ts';
import { lobbyUrl } from '../services/request-lobby-link.ts';
import type { RenderedEmail } from './intl.ts';
import type { ActivationEmailPayload, InvitationEmailPayload, LobbyEmailPayload } from './outbox.ts';
import { unsealFromOutbox } from './outbox.ts';
import type { OutboxSignal } from './outbox-signal.ts';
import { renderActivationEmail } from './templates/activation-email.tsx';
import { renderInvitationEmail } from './templates/invitation-email.tsx';
import { renderLobbyEmail } from './templates/lobby-email.tsx';
import type { MailTransport } from './transport.ts';

export const MAX_ATTEMPTS = 10;
export const CLAIM_MS = 2 * 60 * 1000;
export const BACKOFF_BASE_MS = 30 * 1000;
export const BACKOFF_MAX_MS = 60 * 60 * 1000;
export const POLL_INTERVAL_MS = 5_000;
const BATCH_SIZE = 20;

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
  env: Pick<Env, 'APP_SECRET' | 'PUBLIC_URL' | 'MAIL_FROM'>;
  logger: Logger;
  signal?: OutboxSignal;
  pollIntervalMs?: number;
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
}

export class OutboxWorker extends EventEmitter<OutboxWorkerEvents> {
  readonly #options: OutboxWorkerOptions;
  readonly #now: () => Date;
  #running = false;
  #loop: Promise<void> | undefined;
  #dirty = false;
  #wake: (() => void) | undefined;
  #unlisten: (() => void) | undefined;

  constructor(options: OutboxWorkerOptions) {
    super();
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  get running(): boolean {
    return this.#running;
  }

  /** Runs until stop(): a pass, then waits for a signal or the poll interval. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unlisten = this.#options.signal?.listen(() => this.wake());
    this.#loop = this.#run();
  }

  /** Finishes the email being sent, then stops. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#unlisten?.();
    this.wake();
    await this.#loop;
  }

  wake(): void {
    this.#dirty = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#dirty = false;
      let result: OutboxRunResult | undefined;
      try {
        result = await this.runOnce();
      } catch (error) {
        this.#options.logger.error({ err: error }, 'outbox: pass failed');
      }
      if (!this.#running) break;
      if (result && result.claimed > 0) continue;
      this.emit('idle');
      if (this.#dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.pollIntervalMs ?? POLL_INTERVAL_MS);
        timer.unref();
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  /** Claims every row due now and sends each once. */
  async runOnce(): Promise<OutboxRunResult> {
    const result: OutboxRunResult = { claimed: 0, sent: 0, retried: 0, failed: 0 };
    const now = this.#now().toISOString();
    const candidates = await this.#options.db
      .selectFrom('email_outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(BATCH_SIZE)
      .execute();
    for (const { id } of candidates) {
      const claim = await this.#claim(id);
      if (!claim) continue;
      result.claimed++;
      const outcome = await this.#deliver(claim.row, claim.lockedUntil);
      result[outcome]++;
    }
    return result;
  }

  async #claim(id: string): Promise<{ row: EmailOutboxRow; lockedUntil: string } | null> {
    const now = this.#now();
    const at = now.toISOString();
    const lockedUntil = new Date(now.getTime() + CLAIM_MS).toISOString();
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

  async #deliver(row: EmailOutboxRow, lockedUntil: string): Promise<'sent' | 'retried' | 'failed'> {
    const { db, logger, transport, env } = this.#options;
    try {
      const rendered = await this.#render(row);
      await transport.send({ outboxId: row.id, to: row.recipient, from: env.MAIL_FROM, ...rendered });
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

  async #render(row: EmailOutboxRow): Promise<RenderedEmail> {
    const locale = isLocale(row.locale) ? row.locale : 'en';
    if (row.template === 'activation') {
      const payload = JSON.parse(row.payload) as ActivationEmailPayload;
      const activationId = unsealFromOutbox(payload.sealedActivationId, this.#options.env.APP_SECRET);
      return renderActivationEmail({
        locale,
        firstName: payload.firstName,
        invitorName: payload.invitorName,
        activationUrl: activationUrl(this.#options.env.PUBLIC_URL, locale, activationId),
        expiresAt: new Date(payload.expiresAt),
      });
    }
    if (row.template === 'invitation') {
      const payload = JSON.parse(row.payload) as InvitationEmailPayload;
      return renderInvitationEmail({
        locale,
        code: payload.code,
        invitationUrl: invitationUrl(this.#options.env.PUBLIC_URL, locale, payload.code),
        expiresAt: new Date(payload.expiresAt),
        reason: payload.reason,
      });
    }
    if (row.template === 'lobby') {
      const payload = JSON.parse(row.payload) as LobbyEmailPayload;
      const token = unsealFromOutbox(payload.sealedToken, this.#options.env.APP_SECRET);
      return renderLobbyEmail({ locale, lobbyUrl: lobbyUrl(this.#options.env.PUBLIC_URL, locale, token), expiresAt: new Date(payload.expiresAt) });
    }
    throw new Error(`unknown email template ${row.template}`);
  }
}
