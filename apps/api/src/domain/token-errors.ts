/** The GraphQL TokenError of a signed token's failure (@velvet/tokens, docs/decisions/009). */
import type { TokenFailure } from '@velvet/tokens/signed-token';

export const TOKEN_ERRORS = ['MISSING', 'INVALID', 'EXPIRED', 'NO_EMAIL'] as const;
export type TokenError = (typeof TOKEN_ERRORS)[number];

const BY_FAILURE: Record<TokenFailure, TokenError> = {
  missing: 'MISSING',
  invalid: 'INVALID',
  expired: 'EXPIRED',
  'no-email': 'NO_EMAIL',
};

export function tokenError(failure: TokenFailure): TokenError {
  return BY_FAILURE[failure];
}
