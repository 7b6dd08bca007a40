/**
 * Webhooks in the console (issue 24 §4, ADR 065): the owner's endpoints, their recent deliveries,
 * replaying them. Only the owner (webhooks.manage) reads or writes any of it: an endpoint's address
 * and its deliveries are the club's integration, not everyone's business. Expected refusals are
 * userErrors (ADR 044).
 */
import { WEBHOOK_EVENT_TYPES } from '@velvet/validation/admin';
import type { ApiContext } from '../context.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  replayDeliveries,
  rotateEndpointSecret,
  updateEndpoint,
} from '../webhooks/endpoints.ts';
import type { DeliveryPage, ReplaySelection, WebhookDelivery, WebhookEndpoint } from '../webhooks/endpoints.ts';
import { actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef, answer } from './user-errors.ts';
import type { Answer } from './user-errors.ts';

const DeliveryRef = builder.objectRef<WebhookDelivery>('WebhookDelivery');
DeliveryRef.implement({
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The webhook-id header: the same on every attempt and replay.' }),
    eventType: t.exposeString('eventType'),
    status: t.string({ description: 'pending, sending or delivered.', resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts'),
    createdAt: t.exposeString('createdAt'),
    lastAttemptAt: t.string({ nullable: true, resolve: (d) => d.lastAttemptAt }),
    lastStatusCode: t.int({ nullable: true, description: 'The HTTP status of the last attempt; null when the receiver did not answer.', resolve: (d) => d.lastStatusCode }),
    lastError: t.string({ nullable: true, description: 'timeout, unreachable or http; null before an attempt and after a success.', resolve: (d) => d.lastError }),
    nextAttemptAt: t.string({ nullable: true, description: 'Null once delivered.', resolve: (d) => d.nextAttemptAt }),
    deliveredAt: t.string({ nullable: true, resolve: (d) => d.deliveredAt }),
  }),
});

const DeliveryPageRef = builder.objectRef<DeliveryPage>('WebhookDeliveryPage');
DeliveryPageRef.implement({
  fields: (t) => ({
    deliveries: t.field({ type: [DeliveryRef], resolve: (p) => p.deliveries }),
    nextCursor: t.string({ nullable: true, description: 'Pass as `after` for the older deliveries; null on the last page.', resolve: (p) => p.nextCursor }),
    paged: t.exposeBoolean('paged', { description: '`after` named a page of this endpoint: these are not its newest deliveries.' }),
  }),
});

const EndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint');
EndpointRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description'),
    eventTypes: t.stringList({ resolve: (e) => e.eventTypes }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.string({ nullable: true, description: 'owner (switched off) or failing (24 hours of failures).', resolve: (e) => e.disabledReason }),
    disabledAt: t.string({ nullable: true, resolve: (e) => e.disabledAt }),
    failingSince: t.string({ nullable: true, description: 'The first failure since the last success.', resolve: (e) => e.failingSince }),
    createdAt: t.exposeString('createdAt'),
    deliveryPage: t.field({
      type: DeliveryPageRef,
      description:
        'The deliveries, newest first, a page at a time: `after` is a nextCursor of this endpoint (one of another endpoint, or ' +
        'anything else, gives the newest page, so one cursor can be passed to every endpoint of a list).',
      args: { first: t.arg.int({ required: false, defaultValue: 25 }), after: t.arg.string({ required: false }) },
      resolve: (e, { first, after }, ctx) => listDeliveries(ctx.db, e.id, { first: first ?? 25, after }),
    }),
  }),
});

const CreatedRef = builder.objectRef<Answer<{ endpoint: WebhookEndpoint; secret: string }>>('WebhookEndpointCreatePayload');
CreatedRef.implement({
  description: 'secret: the `whsec_…` signing secret, shown this once.',
  fields: (t) => ({
    endpoint: t.field({ type: EndpointRef, nullable: true, resolve: (r) => r.value?.endpoint ?? null }),
    secret: t.string({ nullable: true, resolve: (r) => r.value?.secret ?? null }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const UpdatedRef = builder.objectRef<Answer<WebhookEndpoint>>('WebhookEndpointUpdatePayload');
UpdatedRef.implement({
  fields: (t) => ({
    endpoint: t.field({ type: EndpointRef, nullable: true, resolve: (r) => r.value }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const SecretRef = builder.objectRef<Answer<string>>('WebhookSecretPayload');
SecretRef.implement({
  fields: (t) => ({
    secret: t.string({ nullable: true, description: 'The new secret, shown this once.', resolve: (r) => r.value }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const CountRef = builder.objectRef<Answer<number | true>>('WebhookCountPayload');
CountRef.implement({
  fields: (t) => ({
    count: t.int({ description: 'Replay: the deliveries due again now; delete: 1.', resolve: (r) => (r.value === true ? 1 : (r.value ?? 0)) }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const EndpointInput = builder.inputType('WebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'https; no user name or password; loopback only on a local instance (ADR 026).' }),
    description: t.string({ required: false }),
    eventTypes: t.stringList({ required: true, description: `Some of: ${WEBHOOK_EVENT_TYPES.join(', ')}.` }),
  }),
});

const deps = (ctx: ApiContext) => ({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now, localInstance: ctx.env.localInstance });
const owner = async (ctx: ApiContext) => actorOf(ctx, await requireAdmin(ctx, 'webhooks.manage'));

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: [EndpointRef],
    description: 'The webhook endpoints, oldest first (webhooks.manage: the owner).',
    resolve: async (_root, _args, ctx) => {
      await owner(ctx);
      return listEndpoints(ctx.db);
    },
  }),
);

builder.queryField('webhookEventTypes', (t) =>
  t.stringList({ description: 'The event types an endpoint can hear.', resolve: () => [...WEBHOOK_EVENT_TYPES] }),
);

builder.mutationField('webhookEndpointCreate', (t) =>
  t.field({
    type: CreatedRef,
    description: 'Adds an endpoint, enabled, with a new secret (webhooks.manage). INVALID_FIELD (url, eventTypes).',
    args: { input: t.arg({ type: EndpointInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      answer(await createEndpoint(deps(ctx), await owner(ctx), { url: input.url, description: input.description ?? '', eventTypes: input.eventTypes })),
  }),
);

builder.mutationField('webhookEndpointUpdate', (t) =>
  t.field({
    type: UpdatedRef,
    description: 'Changes an endpoint and switches it on or off (webhooks.manage). INVALID_FIELD, WEBHOOK_NOT_FOUND.',
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: EndpointInput, required: true }), enabled: t.arg.boolean({ required: true }) },
    resolve: async (_root, { id, input, enabled }, ctx) => {
      const result = await updateEndpoint(deps(ctx), await owner(ctx), { id, enabled, url: input.url, description: input.description ?? '', eventTypes: input.eventTypes });
      if (result.ok && enabled) ctx.outboxSignal.notify();
      return answer(result);
    },
  }),
);

builder.mutationField('webhookSecretRotate', (t) =>
  t.field({
    type: SecretRef,
    description: 'A new signing secret for the endpoint, used from the next attempt (webhooks.manage). WEBHOOK_NOT_FOUND.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, ctx) => answer(await rotateEndpointSecret(deps(ctx), await owner(ctx), id)),
  }),
);

builder.mutationField('webhookEndpointDelete', (t) =>
  t.field({
    type: CountRef,
    description: 'Deletes the endpoint and its deliveries (webhooks.manage). WEBHOOK_NOT_FOUND.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, ctx) => answer(await deleteEndpoint(deps(ctx), await owner(ctx), id)),
  }),
);

builder.mutationField('webhookReplay', (t) =>
  t.field({
    type: CountRef,
    description:
      'Sends deliveries of the endpoint again now, with their webhook-id (webhooks.manage): one (deliveryId), those failing (failed: true), ' +
      'or those written between from and to (ISO 8601). WEBHOOK_NOT_FOUND, INVALID_FIELD.',
    args: {
      endpointId: t.arg.string({ required: true }),
      deliveryId: t.arg.string({ required: false }),
      failed: t.arg.boolean({ required: false }),
      from: t.arg.string({ required: false }),
      to: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const actor = await owner(ctx);
      const selection: ReplaySelection | null = args.deliveryId
        ? { deliveryId: args.deliveryId }
        : args.failed
          ? { failed: true }
          : args.from && args.to
            ? { from: args.from, to: args.to }
            : null;
      if (!selection) return { value: null, userErrors: [{ code: 'INVALID_FIELD' as const, field: 'deliveryId', messageId: 'admin.webhooks.error.range' }] };
      const result = await replayDeliveries(deps(ctx), actor, args.endpointId, selection);
      if (result.ok && result.value > 0) ctx.outboxSignal.notify();
      return answer(result);
    },
  }),
);
