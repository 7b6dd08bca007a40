/**
 * Sends the webhook deliveries (issue 24 §4, ADR 065), as the email outbox sends its rows
 * (mail/outbox-worker.ts, ADR 006): a due row is claimed with a conditional UPDATE, so of several
 * workers exactly one wins it, and a crashed worker's claim expires after CLAIM_MS (a claim moves
 * the row's next attempt to the claim's end, so one condition finds both).
 *
 * - Signed as the Standard Webhooks specification says, with its library: webhook-id (the
 *   delivery's id, the same on every attempt and replay), webhook-timestamp (the attempt's time),
 *   webhook-signature `v1,<base64 HMAC-SHA256 of id.timestamp.body>`.
 * - A 2xx answer is success; any other status, no answer within the time-out (10 s), or no
 *   connection is a failure, retried after 10 s · 2^(attempts−1), at most an hour, plus up to 20 %
 *   jitter: at least once, never given up while the endpoint is on.
 * - Ordered per key: a delivery is due only once every earlier one of the same endpoint and key
 *   (a member, an application, an entry, a code) is delivered.
 * - An endpoint that has failed for 24 hours without a success is disabled, and every owner is
 *   emailed through the outbox in the transaction that disables it; its deliveries wait, and go out
 *   in order when the owner switches it on again.
 */
import { isLocale } from '@velvet/i18n/locales';
import { Webhook } from 'standardwebhooks';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { PollingLoop } from '../lib/polling-loop.ts';
import { enqueueEmail } from '../mail/outbox.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { unsealEndpointSecret } from './endpoints.ts';
import { InternalAddressError, postWebhook } from './post.ts';

const CLAIM_MS = 60 * 1000;
const WEBHOOK_TIMEOUT_MS = 10_000;
const BACKOFF_BASE_MS = 10 * 1000;
const BACKOFF_MAX_MS = 60 * 60 * 1000;
/** Continuous failure after which an endpoint is disabled. */
export const DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
const POLL_INTERVAL_MS = 2_000;
const CONCURRENCY = 4;
const BATCH_SIZE = 20;

/** Delay before attempt `attempts + 1`, given `attempts` failed ones; `random` in [0, 1) adds up to 20 %. */
function webhookBackoffMs(attempts: number, random: number = Math.random()): number {
  return Math.round(Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS) * (1 + 0.2 * random));
}

export interface WebhookWorkerOptions {
  db: Db;
  secret: string;
  logger: Logger;
  /** Wakes the worker when a transaction wrote deliveries (the outbox's signal); the emails it queues wake the outbox. */
  signal?: OutboxSignal;
  pollIntervalMs?: number;
  /** A local instance (ADR 026) may post to loopback receivers; any other only to the internet (post.ts). */
  localInstance?: boolean;
  /** How long one attempt may take (default WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  now?: () => Date;
  random?: () => number;
}

export interface WebhookRunResult {
  delivered: number;
  failed: number;
}

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: 'timeout' | 'unreachable' | 'http' };

interface Claimed {
  id: string;
  endpointId: string;
  url: string;
  sealedSecret: string;
  body: string;
  attempts: number;
  lockedUntil: string;
}

export class WebhookWorker {
  readonly #options: WebhookWorkerOptions;
  readonly #now: () => Date;
  readonly #loop: PollingLoop;

  constructor(options: WebhookWorkerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#loop = new PollingLoop({
      name: 'webhooks',
      logger: options.logger,
      signal: options.signal,
      pollIntervalMs: options.pollIntervalMs ?? POLL_INTERVAL_MS,
      // A success may have made the next delivery of its key due.
      pass: async () => (await this.runOnce()).delivered > 0,
    });
  }

  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  wake(): void {
    this.#loop.wake();
  }

  /** Claims the deliveries due now (each the earliest undelivered one of its key) and sends them, CONCURRENCY at a time. */
  async runOnce(): Promise<WebhookRunResult> {
    const result: WebhookRunResult = { delivered: 0, failed: 0 };
    const queue = await this.#dueIds();
    const lane = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const claimed = await this.#claim(id);
        if (claimed) result[(await this.#deliver(claimed)) ? 'delivered' : 'failed']++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return result;
  }

  async #dueIds(): Promise<string[]> {
    const now = this.#now().toISOString();
    const rows = await this.#options.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select('d.id')
      .where('e.enabled', '=', true)
      // Pending and due, or claimed by a worker whose claim ran out (a claim moves next_attempt_at to its end).
      .where('d.status', '!=', 'delivered')
      .where('d.next_attempt_at', '<=', now)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as p')
              .select('p.seq')
              .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
              .whereRef('p.ordering_key', '=', 'd.ordering_key')
              .whereRef('p.seq', '<', 'd.seq')
              .where('p.status', '!=', 'delivered'),
          ),
        ),
      )
      .orderBy('d.seq')
      .limit(BATCH_SIZE)
      .execute();
    return rows.map((row) => row.id);
  }

  async #claim(id: string): Promise<Claimed | null> {
    const now = this.#now();
    const at = now.toISOString();
    const lockedUntil = new Date(now.getTime() + CLAIM_MS).toISOString();
    const { db } = this.#options;
    const updated = await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ status: 'sending', locked_until: lockedUntil, next_attempt_at: lockedUntil, attempts: eb('attempts', '+', 1), last_attempt_at: at }))
      .where('id', '=', id)
      .where('status', '!=', 'delivered')
      .where('next_attempt_at', '<=', at)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    const row = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.id', 'd.endpoint_id', 'e.url', 'e.sealed_secret', 'd.body', 'd.attempts'])
      .where('d.id', '=', id)
      .executeTakeFirstOrThrow();
    return { id: row.id, endpointId: row.endpoint_id, url: row.url, sealedSecret: row.sealed_secret, body: row.body, attempts: row.attempts, lockedUntil };
  }

  /** One attempt: signed at the attempt's time, bounded by the time-out. */
  async #post(claimed: Claimed): Promise<Outcome> {
    const timestamp = this.#now();
    const signature = new Webhook(unsealEndpointSecret(claimed.sealedSecret, this.#options.secret)).sign(claimed.id, timestamp, claimed.body);
    const signal = AbortSignal.timeout(this.#options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    try {
      const status = await postWebhook({
        url: claimed.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'VelvetRope-Webhooks/1',
          'webhook-id': claimed.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: claimed.body,
        signal,
        publicOnly: !this.#options.localInstance,
      });
      return status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: 'http' };
    } catch (error) {
      // A host that is or resolves to an internal address is unreachable for webhooks (post.ts); the log says why.
      if (error instanceof InternalAddressError) this.#options.logger.warn({ webhookId: claimed.id, endpointId: claimed.endpointId }, error.message);
      return { ok: false, status: null, error: signal.aborted ? 'timeout' : 'unreachable' };
    }
  }

  async #deliver(claimed: Claimed): Promise<boolean> {
    const { db, logger } = this.#options;
    const outcome = await this.#post(claimed);
    const now = this.#now();
    const at = now.toISOString();
    if (outcome.ok) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'delivered', delivered_at: at, locked_until: null, last_status_code: outcome.status, last_error: null })
          .where('id', '=', claimed.id)
          .where('locked_until', '=', claimed.lockedUntil)
          .execute();
        await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', claimed.endpointId).execute();
      });
      logger.info({ webhookId: claimed.id, endpointId: claimed.endpointId, attempts: claimed.attempts, status: outcome.status }, 'webhooks: delivered');
      return true;
    }
    const nextAttemptAt = new Date(now.getTime() + webhookBackoffMs(claimed.attempts, (this.#options.random ?? Math.random)())).toISOString();
    const disabled = await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', locked_until: null, next_attempt_at: nextAttemptAt, last_status_code: outcome.status, last_error: outcome.error })
        .where('id', '=', claimed.id)
        .where('locked_until', '=', claimed.lockedUntil)
        .execute();
      await trx.updateTable('webhook_endpoints').set({ failing_since: at }).where('id', '=', claimed.endpointId).where('failing_since', 'is', null).execute();
      return disableIfFailingForADay(trx, claimed.endpointId, now);
    });
    logger.warn(
      { webhookId: claimed.id, endpointId: claimed.endpointId, attempts: claimed.attempts, status: outcome.status, error: outcome.error, nextAttemptAt },
      'webhooks: delivery failed, will retry',
    );
    if (disabled > 0) {
      logger.error({ endpointId: claimed.endpointId, ownersTold: disabled }, 'webhooks: endpoint failing for a day, disabled');
      this.#options.signal?.notify();
    }
    return false;
  }
}

/**
 * Disables the endpoint when it has failed since 24 hours ago or earlier, and queues the email to
 * every owner in the same transaction (only the worker that switches it off writes them). Returns
 * how many owners are told (0: not disabled now).
 */
async function disableIfFailingForADay(trx: Kysely<Database>, endpointId: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - DISABLE_AFTER_MS).toISOString();
  const switched = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: 'failing', disabled_at: now.toISOString(), updated_at: now.toISOString() })
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .where('failing_since', '<=', since)
    .executeTakeFirst();
  if (Number(switched.numUpdatedRows) !== 1) return 0;
  const endpoint = await trx.selectFrom('webhook_endpoints').select(['url', 'description', 'failing_since']).where('id', '=', endpointId).executeTakeFirstOrThrow();
  const owners = await trx.selectFrom('admin_users').select(['email', 'language']).where('role', '=', 'owner').where('disabled_at', 'is', null).execute();
  for (const owner of owners) {
    await enqueueEmail(
      trx,
      {
        template: 'webhook-disabled',
        recipient: owner.email,
        // The console's language at the owner's last sign-in; English for one who has not signed in since it was kept.
        locale: isLocale(owner.language) ? owner.language : 'en',
        payload: { endpointHost: new URL(endpoint.url).host, description: endpoint.description, failingSince: new Date(endpoint.failing_since ?? now).toISOString() },
      },
      now,
    );
  }
  return owners.length;
}
