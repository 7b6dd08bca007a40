/**
 * Issue 24 §4 (ADR 065): the club's other systems hear every step, through signed webhooks.
 * - webhook_endpoints: an address the owner configured, the event types it hears, its signing
 *   secret (sealed with a key of APP_SECRET: the API needs it in clear to sign), whether it is on,
 *   and since when it has failed without a success in between (disabled after 24 hours of that).
 * - webhook_deliveries: one row per event per endpoint, written in the transaction of the change
 *   (the outbox, ADR 006), sent by the worker. `seq` is the write order; a delivery waits for the
 *   earlier ones of the same endpoint and ordering key (one member, one application, one code).
 * Expand only: new tables, nothing the running version reads changes. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

export const webhooksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = engineOf(db) === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'text';
    const boolean = postgres ? 'boolean' : 'integer';

    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      // JSON array of event types ("member.registered", …).
      .addColumn('event_types', 'text', (c) => c.notNull())
      .addColumn('sealed_secret', 'text', (c) => c.notNull())
      .addColumn('enabled', boolean, (c) => c.notNull())
      // 'owner' (switched off in the console) or 'failing' (24 hours of failures); null while enabled.
      .addColumn('disabled_reason', 'text')
      .addColumn('disabled_at', timestamp)
      // The first failure since the last success; null after a success.
      .addColumn('failing_since', timestamp)
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      // The webhook-id header: the same on every attempt and every replay.
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('event_type', 'text', (c) => c.notNull())
      // member:<id>, application:<id>, waitlist:<id>, code:<id>: deliveries of one key go out in order.
      .addColumn('ordering_key', 'text', (c) => c.notNull())
      // The signed body, exactly as sent.
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', timestamp, (c) => c.notNull())
      .addColumn('locked_until', timestamp)
      .addColumn('last_attempt_at', timestamp)
      // The receiver's HTTP status of the last attempt; null when it did not answer.
      .addColumn('last_status_code', 'integer')
      // 'timeout', 'unreachable' or 'http'; null before the first attempt and after a success.
      .addColumn('last_error', 'text')
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('delivered_at', timestamp)
      .addCheckConstraint('webhook_deliveries_status_check', sql`status in ('pending', 'sending', 'delivered')`)
      .execute();
    await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_order_idx').on('webhook_deliveries').columns(['endpoint_id', 'ordering_key', 'seq']).execute();
    await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhook_endpoints').execute();
  },
};
