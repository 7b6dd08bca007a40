/**
 * The events the door tells the club's other systems (issue 24 §4, ADR 065). Each is written as
 * one delivery row per enabled endpoint subscribed to its type, in the transaction of the change
 * that causes it (the outbox, ADR 006): rolled back, nothing is sent; committed, it is sent at
 * least once. A payload names people by ids, never by address or name: the receiver joins them
 * with its own data if it has a right to (ADR 065 says why each field is there).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WebhookEventType } from '@velvet/validation/admin';
import type { Database } from '../db/schema.ts';

/** What each event type carries in `data`. */
interface WebhookEventData {
  'member.registered': { memberId: string; status: 'pending' | 'active'; code: string; country: string | null; language: string | null };
  'member.activated': { memberId: string; country: string | null; language: string | null };
  'waitlist.joined': { entryId: string; language: string };
  'application.received': { applicationId: string; country: string | null; language: string };
  'application.decided': { applicationId: string; decision: 'approved' | 'declined'; reasonId: string | null; country: string | null; language: string };
  'code.quarantined': { code: string };
}

export type WebhookEvent = { [T in WebhookEventType]: { type: T; data: WebhookEventData[T] } }[WebhookEventType];

/** Deliveries of one key go out in the order they were written (a member, an application, an entry, a code). */
function orderingKey(event: WebhookEvent): string {
  switch (event.type) {
    case 'member.registered':
    case 'member.activated':
      return `member:${event.data.memberId}`;
    case 'waitlist.joined':
      return `waitlist:${event.data.entryId}`;
    case 'application.received':
    case 'application.decided':
      return `application:${event.data.applicationId}`;
    case 'code.quarantined':
      return `code:${event.data.code}`;
  }
}

/**
 * Queues `event` for every enabled endpoint that hears its type; call inside the transaction of
 * the change. Returns how many deliveries were written (0: nobody listens). The body is the
 * Standard Webhooks shape: `{ type, timestamp, data }`; the webhook-id is the delivery's id.
 */
export async function enqueueWebhookEvent(db: Kysely<Database>, event: WebhookEvent, now: Date): Promise<number> {
  const endpoints = await db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('enabled', '=', true).execute();
  const listening = endpoints.filter((endpoint) => (JSON.parse(endpoint.event_types) as string[]).includes(event.type));
  if (listening.length === 0) return 0;
  const at = now.toISOString();
  const body = JSON.stringify({ type: event.type, timestamp: at, data: event.data });
  await db
    .insertInto('webhook_deliveries')
    .values(
      listening.map((endpoint) => ({
        id: `msg_${randomUUID().replaceAll('-', '')}`,
        endpoint_id: endpoint.id,
        event_type: event.type,
        ordering_key: orderingKey(event),
        body,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: at,
        locked_until: null,
        last_attempt_at: null,
        last_status_code: null,
        last_error: null,
        created_at: at,
        delivered_at: null,
      })),
    )
    .execute();
  return listening.length;
}
