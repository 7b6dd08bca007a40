import { TOKEN_ERRORS } from '../domain/token-errors.ts';
import type { TokenError } from '../domain/token-errors.ts';
import { builder } from './builder.ts';

const DESCRIPTIONS: Record<TokenError, string> = {
  MISSING: 'No token, or an empty one.',
  INVALID: 'Not a token of this kind: malformed, altered, signed with another key, or meant for another purpose.',
  EXPIRED: 'A genuine token past its expiry.',
  NO_EMAIL: 'A genuine token without a usable email address.',
};

export const TokenErrorEnum = builder.enumType('TokenError', {
  description: 'Why a signed token (the lobby link, the social sign-up hand-over) was refused. Nothing is written for a refused token.',
  values: Object.fromEntries(TOKEN_ERRORS.map((name) => [name, { value: name, description: DESCRIPTIONS[name] }])) as Record<
    TokenError,
    { value: TokenError; description: string }
  >,
});
