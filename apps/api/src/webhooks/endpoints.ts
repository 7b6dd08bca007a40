/**
 * The owner's webhook endpoints (issue 24 §4, ADR 065): add one (its `whsec_…` secret shown once),
 * choose its event types, switch it on or off, rotate its secret, delete it; read its recent
 * deliveries; replay one delivery or a range with the same webhook-id. Every change and replay is
 * audited in its own transaction.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '@velvet/validation/admin';
import type { WebhookEventType } from '@velvet/validation/admin';
import type { UserError } from '@velvet/validation/user-errors';
import type { Db } from '../db/connect.ts';
import type { WebhookDeliveryStatus } from '../db/schema.ts';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import { deriveKey, seal, unseal } from '../lib/tokens.ts';
import { isInternalAddress } from './post.ts';

export interface WebhookDeps {
  db: Db;
  secret: string;
  now: Date;
  /** The quick start or a test on this machine (ADR 026): only then may an endpoint be a loopback http address. */
  localInstance: boolean;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  disabledReason: 'owner' | 'failing' | null;
  disabledAt: string | null;
  failingSince: string | null;
  createdAt: string;
}

export interface WebhookDelivery {
  id: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

const secretKey = (appSecret: string) => deriveKey(appSecret, 'webhook-endpoint-secret');
export const unsealEndpointSecret = (sealed: string, appSecret: string) => unseal(sealed, secretKey(appSecret));
/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64 (192 bits). */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

const refused = (code: UserError['code'], messageId: string, field: string | null = null): Result<never> => fail({ code, field, messageId });
const NOT_FOUND = () => refused('WEBHOOK_NOT_FOUND', 'admin.webhooks.error.notFound', 'id');

const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The messageId refusing `raw` as an endpoint address, or null when it is fine: https (http only
 * to a loopback host, and loopback only on a local instance, ADR 026), no user name or password
 * in it, at most 2,000 characters.
 */
export function refuseEndpointUrl(raw: string, localInstance: boolean): string | null {
  if (raw.length > 2000) return 'admin.webhooks.error.url';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'admin.webhooks.error.url';
  }
  if (url.username || url.password) return 'admin.webhooks.error.credentials';
  const loopback = LOOPBACK.test(url.hostname);
  if (loopback && !localInstance) return 'admin.webhooks.error.loopback';
  // An internal network's address written out (10.…, 192.168.…, fd00::…): the worker would refuse it anyway (post.ts).
  if (!localInstance && isInternalAddress(url.hostname)) return 'admin.webhooks.error.internal';
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return null;
  return 'admin.webhooks.error.https';
}

interface EndpointInput {
  url: string;
  description: string;
  eventTypes: readonly string[];
}

function checkInput(input: EndpointInput, localInstance: boolean): Result<{ url: string; description: string; eventTypes: WebhookEventType[] }> {
  const url = input.url.trim();
  const refusedUrl = refuseEndpointUrl(url, localInstance);
  if (refusedUrl) return refused('INVALID_FIELD', refusedUrl, 'url');
  const eventTypes = WEBHOOK_EVENT_TYPES.filter((type) => input.eventTypes.includes(type));
  if (eventTypes.length === 0 || eventTypes.length !== new Set(input.eventTypes).size) return refused('INVALID_FIELD', 'admin.webhooks.error.eventTypes', 'eventTypes');
  return ok({ url, description: input.description.trim().slice(0, 200), eventTypes });
}

type EndpointRow = {
  id: string;
  url: string;
  description: string;
  event_types: string;
  enabled: boolean;
  disabled_reason: 'owner' | 'failing' | null;
  disabled_at: string | null;
  failing_since: string | null;
  created_at: string;
};

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: JSON.parse(row.event_types) as WebhookEventType[],
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  disabledAt: row.disabled_at,
  failingSince: row.failing_since,
  createdAt: row.created_at,
});

const ENDPOINT_COLUMNS = ['id', 'url', 'description', 'event_types', 'enabled', 'disabled_reason', 'disabled_at', 'failing_since', 'created_at'] as const;

export async function listEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  return (await db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).orderBy('created_at').orderBy('id').execute()).map(toEndpoint);
}

/** The host names the endpoint in the audit log: a path may carry a receiver's token. */
const auditTarget = (url: string) => `webhook:${new URL(url).host}`;

/** A new endpoint, enabled; its secret is returned this once (the console shows it once). */
export async function createEndpoint(deps: WebhookDeps, actor: AuditActor, input: EndpointInput): Promise<Result<{ endpoint: WebhookEndpoint; secret: string }>> {
  const checked = checkInput(input, deps.localInstance);
  if (!checked.ok) return checked;
  const { url, description, eventTypes } = checked.value;
  const id = randomUUID();
  const secret = newSecret();
  const at = deps.now.toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_endpoints')
      .values({
        id,
        url,
        description,
        event_types: JSON.stringify(eventTypes),
        sealed_secret: seal(secret, secretKey(deps.secret)),
        enabled: true,
        disabled_reason: null,
        disabled_at: null,
        failing_since: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await recordAudit(trx, actor, { action: 'webhook.created', target: auditTarget(url), details: { endpointId: id, after: { eventTypes, enabled: true } } }, deps.now);
  });
  const row = await deps.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
  return ok({ endpoint: toEndpoint(row), secret });
}

/** Changes the address, description and event types, and switches the endpoint on or off. */
export async function updateEndpoint(deps: WebhookDeps, actor: AuditActor, input: EndpointInput & { id: string; enabled: boolean }): Promise<Result<WebhookEndpoint>> {
  const checked = checkInput(input, deps.localInstance);
  if (!checked.ok) return checked;
  const { url, description, eventTypes } = checked.value;
  const at = deps.now.toISOString();
  const changed = await deps.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', input.id).executeTakeFirst();
    if (!before) return false;
    const switching = before.enabled !== input.enabled;
    await trx
      .updateTable('webhook_endpoints')
      .set({
        url,
        description,
        event_types: JSON.stringify(eventTypes),
        enabled: input.enabled,
        updated_at: at,
        ...(switching ? { disabled_reason: input.enabled ? null : 'owner', disabled_at: input.enabled ? null : at, failing_since: null } : {}),
      })
      .where('id', '=', input.id)
      .execute();
    // Switched on again: what waited is due now, not at the end of its back-off.
    if (switching && input.enabled) {
      await trx.updateTable('webhook_deliveries').set({ next_attempt_at: at }).where('endpoint_id', '=', input.id).where('status', '=', 'pending').execute();
    }
    await recordAudit(
      trx,
      actor,
      {
        action: 'webhook.changed',
        target: auditTarget(url),
        details: {
          endpointId: input.id,
          before: { host: new URL(before.url).host, eventTypes: JSON.parse(before.event_types) as unknown, enabled: before.enabled },
          after: { host: new URL(url).host, eventTypes, enabled: input.enabled },
        },
      },
      deps.now,
    );
    return true;
  });
  if (!changed) return NOT_FOUND();
  return ok(toEndpoint(await deps.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', input.id).executeTakeFirstOrThrow()));
}

/** A new secret, effective for the next attempt; returned this once. */
export async function rotateEndpointSecret(deps: WebhookDeps, actor: AuditActor, id: string): Promise<Result<string>> {
  const secret = newSecret();
  const rotated = await deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('webhook_endpoints').select('url').where('id', '=', id).executeTakeFirst();
    if (!row) return false;
    await trx
      .updateTable('webhook_endpoints')
      .set({ sealed_secret: seal(secret, secretKey(deps.secret)), updated_at: deps.now.toISOString() })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, actor, { action: 'webhook.secret-rotated', target: auditTarget(row.url), details: { endpointId: id } }, deps.now);
    return true;
  });
  return rotated ? ok(secret) : NOT_FOUND();
}

/** Deletes the endpoint and its deliveries (sent or not). */
export async function deleteEndpoint(deps: WebhookDeps, actor: AuditActor, id: string): Promise<Result<true>> {
  const deleted = await deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('webhook_endpoints').select(['url', 'event_types']).where('id', '=', id).executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    await recordAudit(trx, actor, { action: 'webhook.deleted', target: auditTarget(row.url), details: { endpointId: id, before: { eventTypes: JSON.parse(row.event_types) as unknown } } }, deps.now);
    return true;
  });
  return deleted ? ok(true) : NOT_FOUND();
}

/** A page of an endpoint's deliveries, newest first, and the cursor of the next (older) page. */
export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  /** Pass as `after` for the older deliveries; null on the last page. */
  nextCursor: string | null;
  /** `after` was a cursor of this endpoint: these are not its newest deliveries. */
  paged: boolean;
}

/**
 * The endpoint's deliveries, newest first (at most `first`, 200 at most), older than the `after`
 * cursor when it is one of this endpoint's. A cursor names its endpoint, so one cursor can be
 * handed to every endpoint of a page: the others show their newest, as for anything that is not a
 * cursor of ours.
 */
export async function listDeliveries(db: Db, endpointId: string, options: { first: number; after?: string | null }): Promise<DeliveryPage> {
  const first = Math.min(Math.max(options.first, 1), 200);
  const before = decodeDeliveryCursor(options.after, endpointId);
  let query = db
    .selectFrom('webhook_deliveries')
    .select(['seq', 'id', 'event_type', 'status', 'attempts', 'created_at', 'last_attempt_at', 'last_status_code', 'last_error', 'next_attempt_at', 'delivered_at'])
    .where('endpoint_id', '=', endpointId);
  if (before !== null) query = query.where('seq', '<', before);
  const rows = await query.orderBy('seq', 'desc').limit(first + 1).execute();
  const page = rows.slice(0, first);
  const last = page.at(-1);
  const deliveries = page.map((row) => ({
    id: row.id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    // While it is being sent: when it is tried again should this attempt never finish.
    nextAttemptAt: row.status === 'delivered' ? null : row.next_attempt_at,
    deliveredAt: row.delivered_at,
  }));
  const nextCursor = rows.length > first && last ? Buffer.from(`${endpointId}|${Number(last.seq)}`, 'utf8').toString('base64url') : null;
  return { deliveries, nextCursor, paged: before !== null };
}

/** The sequence number a cursor of this endpoint stops before; null for anything else. */
function decodeDeliveryCursor(cursor: string | null | undefined, endpointId: string): number | null {
  if (!cursor || cursor.length > 200) return null;
  const match = /^([A-Za-z0-9-]{1,64})\|(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match?.[1] === endpointId && match[2] ? Number(match[2]) : null;
}

/** Which deliveries of an endpoint to send again: one, those not delivered yet that failed, or those written in a time range. */
export type ReplaySelection = { deliveryId: string } | { failed: true } | { from: string; to: string };

/**
 * Sends the chosen deliveries again, now, each with its own webhook-id and body (the receiver
 * deduplicates by the id). One being sent right now is left alone. Returns how many are due again.
 */
export async function replayDeliveries(deps: WebhookDeps, actor: AuditActor, endpointId: string, selection: ReplaySelection): Promise<Result<number>> {
  let range: { from: string; to: string } | null = null;
  if ('from' in selection) {
    const from = new Date(selection.from);
    const to = new Date(selection.to);
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from > to) return refused('INVALID_FIELD', 'admin.webhooks.error.range', 'from');
    range = { from: from.toISOString(), to: to.toISOString() };
  }
  const at = deps.now.toISOString();
  const replayed = await deps.db.transaction().execute(async (trx) => {
    const endpoint = await trx.selectFrom('webhook_endpoints').select('url').where('id', '=', endpointId).executeTakeFirst();
    if (!endpoint) return null;
    let query = trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: at, locked_until: null })
      .where('endpoint_id', '=', endpointId)
      .where('status', '!=', 'sending');
    if ('deliveryId' in selection) query = query.where('id', '=', selection.deliveryId);
    else if (range) query = query.where('created_at', '>=', range.from).where('created_at', '<=', range.to);
    else query = query.where('status', '=', 'pending').where('last_error', 'is not', null);
    const count = Number((await query.executeTakeFirst()).numUpdatedRows);
    if ('deliveryId' in selection && count === 0) return null;
    const details = 'deliveryId' in selection ? { deliveryId: selection.deliveryId } : range ? { range } : { failed: true };
    await recordAudit(trx, actor, { action: 'webhook.replayed', target: auditTarget(endpoint.url), details: { endpointId, ...details, count } }, deps.now);
    return count;
  });
  return replayed === null ? NOT_FOUND() : ok(replayed);
}
