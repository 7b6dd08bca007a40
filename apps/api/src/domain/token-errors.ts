/** The user-error code of a signed token's failure (@velvet/tokens, docs/decisions/009). */
import type { TokenFailure } from '@velvet/tokens/signed-token';
import type { TokenErrorCode } from '@velvet/validation/user-errors';

const BY_FAILURE: Record<TokenFailure, TokenErrorCode> = {
  missing: 'TOKEN_MISSING',
  invalid: 'TOKEN_INVALID',
  expired: 'TOKEN_EXPIRED',
  'no-email': 'TOKEN_NO_EMAIL',
};

export function tokenErrorCode(failure: TokenFailure): TokenErrorCode {
  return BY_FAILURE[failure];
}
