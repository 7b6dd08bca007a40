/** The outbox's and the feature flags' GraphQL operations (ADR 049; types inferred from apps/api/schema.graphql, ADR 033). */
import { graphql, operation } from '../api/operations.ts';


export const getOutbox = operation(
  'adminOutbox',
  graphql(`query adminOutbox($status: OutboxStatus, $after: String) {
  adminOutbox(status: $status, first: 50, after: $after) {
    emails { id template status attempts createdAt nextAttemptAt sentAt lastError }
    nextCursor
  }
}`),
);

export const retryOutbox = operation(
  'adminRetryOutbox',
  graphql(`mutation adminRetryOutbox($ids: [String!]!) { adminRetryOutbox(ids: $ids) { retried userErrors { code field messageId } } }`),
);

export const getFeatures = operation(
  'adminFeatures',
  graphql(`query adminFeatures { adminFeatures { key description value source updatedAt experiment { name variations weights coverage } } }`),
);

export const setFeature = operation(
  'adminSetFeature',
  graphql(`mutation adminSetFeature($key: String!, $value: String!) { adminSetFeature(key: $key, value: $value) { feature { key } userErrors { code field messageId } } }`),
);

export const resetFeature = operation(
  'adminResetFeature',
  graphql(`mutation adminResetFeature($key: String!) { adminResetFeature(key: $key) { feature { key } userErrors { code field messageId } } }`),
);

export const setExperiment = operation(
  'adminSetExperiment',
  graphql(`mutation adminSetExperiment($key: String!, $variations: String!, $weights: String!, $coverage: String) {
  adminSetExperiment(key: $key, variations: $variations, weights: $weights, coverage: $coverage) { feature { key } userErrors { code field messageId } }
}`),
);

