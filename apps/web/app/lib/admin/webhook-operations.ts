/** The webhooks page's GraphQL operations (issue 24 §4, ADR 065; types inferred from apps/api/schema.graphql, ADR 033). */
import { graphql, operation } from '../api/operations.ts';

export const getWebhooks = operation(
  'webhookEndpoints',
  graphql(`query webhookEndpoints($after: String) {
  webhookEndpoints {
    id url description eventTypes enabled disabledReason failingSince
    deliveryPage(first: 25, after: $after) {
      deliveries { id eventType status attempts createdAt lastAttemptAt lastStatusCode lastError nextAttemptAt deliveredAt }
      nextCursor paged
    }
  }
}`),
);

export const createWebhook = operation(
  'webhookEndpointCreate',
  graphql(`mutation webhookEndpointCreate($input: WebhookEndpointInput!) {
  webhookEndpointCreate(input: $input) { secret endpoint { id } userErrors { code field messageId } }
}`),
);

export const updateWebhook = operation(
  'webhookEndpointUpdate',
  graphql(`mutation webhookEndpointUpdate($id: String!, $input: WebhookEndpointInput!, $enabled: Boolean!) {
  webhookEndpointUpdate(id: $id, input: $input, enabled: $enabled) { endpoint { id } userErrors { code field messageId } }
}`),
);

export const rotateWebhookSecret = operation(
  'webhookSecretRotate',
  graphql(`mutation webhookSecretRotate($id: String!) { webhookSecretRotate(id: $id) { secret userErrors { code field messageId } } }`),
);

export const deleteWebhook = operation(
  'webhookEndpointDelete',
  graphql(`mutation webhookEndpointDelete($id: String!) { webhookEndpointDelete(id: $id) { count userErrors { code field messageId } } }`),
);

export const replayWebhooks = operation(
  'webhookReplay',
  graphql(`mutation webhookReplay($endpointId: String!, $deliveryId: String, $failed: Boolean, $from: String, $to: String) {
  webhookReplay(endpointId: $endpointId, deliveryId: $deliveryId, failed: $failed, from: $from, to: $to) { count userErrors { code field messageId } }
}`),
);
