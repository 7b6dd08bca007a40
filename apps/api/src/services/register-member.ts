/**
 * Mutation.register (spec §4) and the shared path of every registration (the social
 * second step in complete-social-registration.ts runs it too): validates every field,
 * checks the invitation, and then
 * - a new address: a pending member, their consent, an activation link and the activation
 *   email (outbox row), all in one transaction that first locks the code's row, so
 *   concurrent registrations never take more places than the code has → FORM_FINISHED;
 *   when an identity provider vouches for the address (social sign-up with a verified
 *   email), the member is active at once instead: the same lock and balance checks, the
 *   consent, the invitation spent and the welcome voucher, no email → ACTIVATED;
 * - an active (or blocked) member's address: nothing is written → ACCOUNT_ACTIVE;
 * - a pending member's address: a fresh link supersedes the older ones and the email is
 *   sent again (at most RESENDS_PER_HOUR times an hour, silently) → ACCOUNT_PENDING; with a
 *   vouched-for address the pending member is activated instead → ACTIVATED. ACCOUNT_PENDING
 *   carries no memberId: whoever typed the address must not watch its status (ADR 029);
 * - a pending member whose activation link expired gave their place back
 *   (invitation-places.ts): registering again needs a free place on the code used now, like
 *   a new address; with one, the member moves to that code and gets a fresh link (or, vouched
 *   for, is activated on it), else the code's errors.
 * Expected failures are data (fieldErrors, codeErrors), never exceptions.
 */
import type { RegisterInput } from '@velvet/validation/registration';
import { isBlocking, normalizeRegistrationCode } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { checkRegistrationCode } from './check-registration-code.ts';
import { isPlaceError } from '../domain/code-admission.ts';
import type { CodeWatch } from '../domain/code-quarantine.ts';
import { holdsPlace } from '../domain/invitation-places.ts';
import { isLinkMadeSince } from '../domain/registration-link.ts';
import { enforceRateLimit } from '../rate-limit.ts';
import { holdNewRegistration } from './registration/hold-registration.ts';
import { activateKnownPendingMember } from './registration/activate-pending-member.ts';
import { createMember } from './registration/create-member.ts';
import { ANSWERED_AS_SUCCESS, ERRORS_ONLY, answer } from './registration/outcomes.ts';
import type { RegisterDeps, RegisterResult, RegistrationRun, SocialRegistrationExtras, ValidFields } from './registration/outcomes.ts';
import { renewPlace } from './registration/renew-place.ts';
import { resendActivation } from './registration/resend-activation.ts';
import { validateFields } from './registration/validate-fields.ts';

export async function registerMember(deps: RegisterDeps, input: RegisterInput): Promise<RegisterResult> {
  const { outcome, memberId, fieldErrors, codeErrors, resendLimitReached } = await runRegistration(deps, input, null);
  // Without a vouched-for address nothing is activated at once.
  if (outcome === 'ACTIVATED') throw new Error('register activated a member without a verified address');
  return { outcome, memberId, fieldErrors, codeErrors, ...(resendLimitReached ? { resendLimitReached } : {}) };
}

/**
 * The one path of every registration: the code check, the field rules, the known-address
 * outcomes, and the transaction that locks the code, counts its places and writes the
 * member, consent and email (or, vouched for, the activation). `social` is null for the forms
 * with an email address typed in.
 */
export async function runRegistration(
  deps: RegisterDeps,
  input: RegisterInput,
  social: SocialRegistrationExtras | null,
): Promise<RegistrationRun> {
  const now = deps.now ?? new Date();
  const check = await checkRegistrationCode(
    { db: deps.db, secret: deps.secret, referrerBlocklist: deps.referrerBlocklist, now, codeWatch: deps.codeWatch },
    input,
  );
  const codeErrors = check.errors.filter(isBlocking);
  const code = normalizeRegistrationCode(input.registrationCode);
  // Made after the quarantine: the inviter's fresh private link (ADR 043).
  const privateLink = (at: string | null) => at !== null && isLinkMadeSince(code, input.validityTimestamp, new Date(at), deps.secret, now);
  const { errors: fieldErrors, values } = await validateFields(deps.db, input, social, now, deps.mailDomains ?? null);
  if (!values) return ERRORS_ONLY(fieldErrors, codeErrors);
  // A pending member may ask for the email again even when their own place fills the code.
  const otherCodeErrors = codeErrors.filter((error) => !isPlaceError(error));
  if (otherCodeErrors.length > 0) return ERRORS_ONLY([], codeErrors);
  // The form's gate (ADR 041): refused, the answer of success and nothing written or sent.
  const admitted =
    !deps.gate ||
    (await deps.gate.admit('REGISTRATION', { email: values.email, proofOfWork: input.proofOfWork, exempt: check.signedSingleUseLink }));
  if (!admitted) return ANSWERED_AS_SUCCESS();
  // Only a submission that passed the field rules and the gate spends the code's limit: junk
  // (a broken address, no proof) cannot shut the code for the inviter's friends (issue 18 §4).
  if (deps.codeLimiter && check.codeId && !privateLink(check.quarantinedAt)) await enforceRateLimit(deps.codeLimiter, code);
  // Every registration counts against its code; one that tips it over quarantines it first (ADR 043).
  // A new address the check found no free place for is one beyond the places (ADR 054); a
  // pending member asking again may fill the code with their own place.
  const observe = async (codeId: string, watch: CodeWatch) =>
    watch.observe(codeId, codeErrors.length > 0 && !(await isKnownAddress(deps, values.email)) ? 'registration_beyond_places' : 'registration');
  const watched = check.codeId && deps.codeWatch ? await observe(check.codeId, deps.codeWatch) : false;
  const quarantinedAt = check.quarantinedAt ?? (watched ? now.toISOString() : null);
  const held = quarantinedAt !== null && !privateLink(quarantinedAt);

  for (let attempt = 0; ; attempt++) {
    try {
      return await registerValid(deps, input, values, social, codeErrors, now, held);
    } catch (error) {
      // The same address registered concurrently: run again, it is now a known member.
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function isKnownAddress(deps: RegisterDeps, email: string): Promise<boolean> {
  return (await deps.db.selectFrom('members').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
}

async function registerValid(
  deps: RegisterDeps,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  codeErrors: RegistrationCodeError[],
  now: Date,
  held: boolean,
): Promise<RegistrationRun> {
  const existing = await deps.db.selectFrom('members').select(['id', 'status']).where('email', '=', values.email).executeTakeFirst();
  if (existing && existing.status !== 'pending') {
    // Active or blocked: say no more than "this address has an account".
    return answer('ACCOUNT_ACTIVE', null);
  }
  if (existing && !(await holdsPlace(deps.db, existing.id, now))) {
    // Their link expired and gave the place back: a place again only if one is free.
    if (codeErrors.length > 0) return ERRORS_ONLY([], codeErrors);
    return renewPlace(deps, existing.id, input, values, social, now);
  }
  if (existing && social?.emailVerified) return activateKnownPendingMember(deps, existing.id, input, values, social, now);
  if (existing) return resendActivation(deps, existing.id, values.language, now);
  // A new address on a quarantined code is held, full or not: a held registration takes no place (ADR 043).
  if (held) return holdNewRegistration(deps, input, values, social, now);
  if (codeErrors.length > 0) return ERRORS_ONLY([], codeErrors);
  return createMember(deps, input, values, social, now);
}
