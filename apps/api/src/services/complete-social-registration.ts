/**
 * Mutation.completeSocialRegistration: the social second step (spec §2, §3). The web app's
 * OAuth callback hands the person over with a signed social token (@velvet/tokens, 15
 * minutes) carrying what the identity provider said: the address, whether the provider
 * verified it, names, provider and subject. The address is always the token's, never the
 * form's. Then the one registration path of register-member.ts runs, with the preferences:
 * a verified address is active at once (ACTIVATED, voucher, no email), an unverified one
 * registers exactly like the email form (FORM_FINISHED and the activation email).
 * A bad token is refused before anything is read or written.
 */
import { verifySocialToken } from '@velvet/tokens/signed-token';
import type { RegisterInput } from '@velvet/validation/registration';
import type { ShoppingPreference } from '@velvet/validation/registration-options';
import type { IssuedWelcomeVoucher } from '../domain/member-activation.ts';
import type { FieldError, RegisterDeps, RegistrationRunOutcome } from './registration/outcomes.ts';
import { runRegistration } from './register-member.ts';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import type { TokenErrorCode } from '@velvet/validation/user-errors';
import { tokenErrorCode } from '../domain/token-errors.ts';

/**
 * Mutation.completeSocialRegistration's input: register's fields (the blocked-referrer rule
 * included), with the address and flow taken from the signed token instead, plus the
 * shopping preferences of the second step.
 */
export type CompleteSocialRegistrationInput = Omit<RegisterInput, 'email' | 'flow'> & {
  token: string;
  shoppingPreferences: readonly ShoppingPreference[];
};

export interface SocialRegistrationResult {
  outcome: RegistrationRunOutcome | null;
  memberId: string | null;
  voucher: IssuedWelcomeVoucher | null;
  firstName: string | null;
  fieldErrors: FieldError[];
  codeErrors: RegistrationCodeError[];
  tokenError: TokenErrorCode | null;
}

/** The form's value when given, else the provider's. */
const givenOr = (value: string | null | undefined, fallback: string | undefined) =>
  value != null && value.trim() !== '' ? value : (fallback ?? null);

export async function completeSocialRegistration(
  deps: RegisterDeps,
  input: CompleteSocialRegistrationInput,
): Promise<SocialRegistrationResult> {
  const now = deps.now ?? new Date();
  const verified = await verifySocialToken(input.token, deps.secret, now);
  if (!verified.ok) {
    deps.logger?.info({ reason: verified.reason }, 'social registration: token refused');
    return {
      outcome: null,
      memberId: null,
      voucher: null,
      firstName: null,
      fieldErrors: [],
      codeErrors: [],
      tokenError: tokenErrorCode(verified.reason),
    };
  }
  const { claims } = verified;
  const run = await runRegistration(
    { ...deps, now },
    {
      registrationCode: input.registrationCode,
      validityTimestamp: input.validityTimestamp ?? null,
      slug: input.slug ?? null,
      referrer: input.referrer ?? null,
      email: claims.email,
      gender: input.gender ?? null,
      firstName: givenOr(input.firstName, claims.firstName),
      lastName: givenOr(input.lastName, claims.lastName),
      country: input.country,
      newsletter: input.newsletter,
      termsAccepted: input.termsAccepted,
      termsPkString: input.termsPkString,
      dataPolicyPkString: input.dataPolicyPkString,
      language: input.language,
      flow: 'SOCIAL',
    },
    {
      emailVerified: claims.emailVerified,
      shoppingPreferences: input.shoppingPreferences,
      identity: { provider: claims.provider, subject: claims.subject },
    },
  );
  return { ...run, tokenError: null };
}
