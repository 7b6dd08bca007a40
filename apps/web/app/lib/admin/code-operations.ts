/** The console's invitations (ADR 046): GraphQL operations, typed from apps/api/schema.graphql (ADR 033). */
import { graphql, operation, type DataOf } from '../api/operations.ts';

export const getCodes = operation(
  'adminCodes',
  graphql(`query adminCodes($filter: AdminCodeFilter, $after: String) {
  adminCodes(filter: $filter, first: 50, after: $after) {
    codes { code inviterName balance pending expiresAt customization landingSlug state replaced }
    nextCursor
  }
}`),
);

export const getCode = operation(
  'adminCode',
  graphql(`query adminCode($code: String!) {
  adminCode(code: $code) {
    code { code inviterName inviterActive balance pending expiresAt customization landingSlug requiresValidityTimestamp createdAt revokedAt replaced state }
    visits registrations activations
    funnel { event sessions }
    days { day visits registrations activations }
  }
}`),
);

export const createCodes = operation(
  'adminCreateCodes',
  graphql(`mutation adminCreateCodes($input: AdminCreateCodesInput!) {
  adminCreateCodes(input: $input) { codes userErrors { code field messageId } }
}`),
);

export const changeCode = operation(
  'adminChangeCode',
  graphql(`mutation adminChangeCode($code: String!, $balance: Float, $expiresAt: String, $clearExpiry: Boolean) {
  adminChangeCode(code: $code, balance: $balance, expiresAt: $expiresAt, clearExpiry: $clearExpiry) { code userErrors { code field messageId } }
}`),
);

export const revokeCode = operation(
  'adminRevokeCode',
  graphql(`mutation adminRevokeCode($code: String!) { adminRevokeCode(code: $code) { code userErrors { code field messageId } } }`),
);

export const rotateCode = operation(
  'adminRotateCode',
  graphql(`mutation adminRotateCode($code: String!) { adminRotateCode(code: $code) { code newCode userErrors { code field messageId } } }`),
);

export const releaseCode = operation(
  'adminReleaseCode',
  graphql(`mutation adminReleaseCode($code: String!) { adminReleaseCode(code: $code) { code registered dropped userErrors { code field messageId } } }`),
);

export type CodeListing = DataOf<typeof getCodes>['adminCodes']['codes'][number];
