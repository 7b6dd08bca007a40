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
 *   carries no registrationId: whoever typed the address must not watch its status (ADR 029);
 * - a pending member whose activation link expired gave their place back
 *   (invitation-places.ts): registering again needs a free place on the code used now, like
 *   a new address; with one, the member moves to that code and gets a fresh link (or, vouched
 *   for, is activated on it), else the code's errors.
 * Expected failures are data (fieldErrors, codeErrors), never exceptions.
 */
import { randomUUID } from 'node:crypto';
import { isLocale } from '@velvet/i18n/locales';
import type { Locale } from '@velvet/i18n/locales';
import {
  REGISTRATION_MESSAGE_IDS,
  email as emailField,
  firstName as firstNameField,
  gender as genderField,
  lastName as lastNameField,
} from '@velvet/validation/registration';
import type { Gender, RegisterInput, RegistrationOutcome, ShoppingPreference } from '@velvet/validation/registration';
import { PREFERENCES_MESSAGE_ID } from '@velvet/validation/registration';
import { isBlocking } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import type { Customization } from '@velvet/validation/customization';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import type { Database } from '../db/schema.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import type { Logger } from '../logger.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { issueActivation } from './activation-links.ts';
import { checkRegistrationCode } from './check-registration-code.ts';
import { heldPlaces, holdsPlace } from './invitation-places.ts';
import { listCountryOptions } from './list-country-options.ts';
import { activatePendingMember, grantWelcomeVoucher, spendInvitation } from './member-activation.ts';
import type { IssuedWelcomeVoucher } from './member-activation.ts';
import type { RegistrationEvents } from './registration-events.ts';

/** The outcomes of the shared path: ACTIVATED only when the address is vouched for. */
export type RegistrationRunOutcome = RegistrationOutcome | 'ACTIVATED';

/** Field names reported in FieldError.field. */
type RegistrationField = 'email' | 'gender' | 'firstName' | 'lastName' | 'country' | 'termsAccepted' | 'language' | 'shoppingPreferences';

/** Activation emails a pending member can have sent again per hour; beyond, the outcome is the same but no email goes out. */
export const RESENDS_PER_HOUR = 3;

export type { RegisterInput };

export interface FieldError {
  field: RegistrationField;
  /** An i18n message id, e.g. validation.email. */
  code: string;
}

export interface RegisterResult {
  outcome: RegistrationOutcome | null;
  /** The member id: set for FORM_FINISHED only (never for an address that was already known). */
  registrationId: string | null;
  fieldErrors: FieldError[];
  codeErrors: RegistrationCodeError[];
}

/** The shared path's result: RegisterResult, plus ACTIVATED with the voucher and first name. */
export interface RegistrationRun {
  outcome: RegistrationRunOutcome | null;
  /** The member id: set for FORM_FINISHED and ACTIVATED. */
  registrationId: string | null;
  fieldErrors: FieldError[];
  codeErrors: RegistrationCodeError[];
  /** Set when ACTIVATED. */
  voucher: IssuedWelcomeVoucher | null;
  /** Set when ACTIVATED (null when the member gave none). */
  firstName: string | null;
}

/** What a registration from the social second step adds to the form. */
export interface SocialRegistrationExtras {
  /** The identity provider vouches that the person controls the address: active at once, no email. */
  emailVerified: boolean;
  /** At least one is required (validation.preferences). */
  shoppingPreferences: readonly ShoppingPreference[];
  /** The provider account; linked to the member only when the address is verified (see linkSocialIdentity). */
  identity: { provider: string; subject: string };
}

export interface RegisterDeps {
  db: Db;
  secret: string;
  referrerBlocklist: readonly string[];
  outboxSignal?: OutboxSignal;
  /** Where ACTIVE is published when a registration activates a member at once. */
  events?: RegistrationEvents;
  logger?: Logger;
  now?: Date;
}

const BALANCE_ERRORS: ReadonlySet<RegistrationCodeError> = new Set([
  'REGISTRATION_CODE_NO_BALANCE_LEFT',
  'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS',
]);

interface ValidFields {
  email: string;
  gender: Gender | null;
  firstName: string;
  lastName: string;
  country: string;
  language: Locale;
  /** Deduplicated; empty outside the social second step. */
  shoppingPreferences: ShoppingPreference[];
}

function firstIssue<T>(schema: z.ZodType<T>, value: unknown): { ok: true; value: T } | { ok: false; code: string } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, code: parsed.error.issues[0]?.message ?? 'validation.invalid' };
}

/** Every field checked, every problem reported (not only the first). */
async function validateFields(
  db: Db,
  input: RegisterInput,
  social: SocialRegistrationExtras | null,
  now: Date,
): Promise<{ errors: FieldError[]; values: ValidFields | null }> {
  const errors: FieldError[] = [];
  const add = (field: RegistrationField, code: string) => errors.push({ field, code });

  const email = firstIssue(emailField, input.email);
  if (!email.ok) add('email', email.code);

  const optionalNames = input.flow === 'SOCIAL';
  let gender: Gender | null = null;
  if (input.gender != null || !optionalNames) {
    const parsed = firstIssue(genderField, input.gender);
    if (parsed.ok) gender = parsed.value;
    else add('gender', parsed.code);
  }
  // The social flow takes names from the identity provider and may have none.
  const names = { firstName: '', lastName: '' };
  for (const [field, schema] of [
    ['firstName', firstNameField],
    ['lastName', lastNameField],
  ] as const) {
    const raw = input[field];
    if (optionalNames && (raw == null || raw.trim() === '')) continue;
    const parsed = firstIssue(schema, raw);
    if (parsed.ok) names[field] = parsed.value;
    else add(field, parsed.code);
  }

  const countryCode = input.country.trim().toUpperCase();
  const option = (await listCountryOptions(db, now)).find((o) => o.isoCode === countryCode);
  if (!option) add('country', REGISTRATION_MESSAGE_IDS.country);

  if (input.termsAccepted !== true) add('termsAccepted', REGISTRATION_MESSAGE_IDS.terms);
  else if (option && (input.termsPkString !== option.termsPkString || input.dataPolicyPkString !== option.dataPolicyPkString)) {
    // The visitor agreed to a version that is no longer (or not yet) the one in force.
    add('termsAccepted', REGISTRATION_MESSAGE_IDS.legalVersion);
  }

  const language = input.language.trim().toLowerCase();
  if (!isLocale(language)) add('language', REGISTRATION_MESSAGE_IDS.language);

  const shoppingPreferences = [...new Set(social?.shoppingPreferences ?? [])];
  if (social && shoppingPreferences.length === 0) add('shoppingPreferences', PREFERENCES_MESSAGE_ID);

  if (errors.length > 0 || !email.ok || !option || !isLocale(language)) return { errors, values: null };
  return { errors, values: { email: email.value, gender, ...names, country: option.isoCode, language, shoppingPreferences } };
}

const ERRORS_ONLY = (fieldErrors: FieldError[], codeErrors: RegistrationCodeError[]): RegistrationRun => ({
  outcome: null,
  registrationId: null,
  fieldErrors,
  codeErrors,
  voucher: null,
  firstName: null,
});

const answer = (outcome: RegistrationRunOutcome, registrationId: string | null): RegistrationRun => ({
  outcome,
  registrationId,
  fieldErrors: [],
  codeErrors: [],
  voucher: null,
  firstName: null,
});

export async function registerMember(deps: RegisterDeps, input: RegisterInput): Promise<RegisterResult> {
  const { outcome, registrationId, fieldErrors, codeErrors } = await runRegistration(deps, input, null);
  // Without a vouched-for address nothing is activated at once.
  if (outcome === 'ACTIVATED') throw new Error('register activated a member without a verified address');
  return { outcome, registrationId, fieldErrors, codeErrors };
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
    { db: deps.db, secret: deps.secret, referrerBlocklist: deps.referrerBlocklist, now },
    input,
  );
  const codeErrors = check.errors.filter(isBlocking);
  const { errors: fieldErrors, values } = await validateFields(deps.db, input, social, now);
  if (!values) return ERRORS_ONLY(fieldErrors, codeErrors);
  // A pending member may ask for the email again even when their own place fills the code.
  const otherCodeErrors = codeErrors.filter((error) => !BALANCE_ERRORS.has(error));
  if (otherCodeErrors.length > 0) return ERRORS_ONLY([], codeErrors);

  for (let attempt = 0; ; attempt++) {
    try {
      return await registerValid(deps, input, values, social, codeErrors, now);
    } catch (error) {
      // The same address registered concurrently: run again, it is now a known member.
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function registerValid(
  deps: RegisterDeps,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  codeErrors: RegistrationCodeError[],
  now: Date,
): Promise<RegistrationRun> {
  const existing = await deps.db
    .selectFrom('members')
    .select(['id', 'status'])
    .where('email', '=', values.email)
    .executeTakeFirst();
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
  if (codeErrors.length > 0) return ERRORS_ONLY([], codeErrors);
  return createMember(deps, input, values, social, now);
}

/**
 * A new member on the code: pending with an activation email, or — the address vouched for
 * by an identity provider — active at once with the invitation spent and the welcome voucher.
 */
async function createMember(
  deps: RegisterDeps,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  now: Date,
): Promise<RegistrationRun> {
  const code = input.registrationCode.trim().toUpperCase();
  const at = now.toISOString();
  const activeAtOnce = social?.emailVerified === true;
  const created = await deps.db.transaction().execute(async (trx) => {
    const codeRow = await trx
      .selectFrom('registration_codes as rc')
      .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
      .select(['rc.id', 'rc.customization', 'inviter.first_name as invitor_name'])
      .where('rc.code', '=', code)
      .executeTakeFirst();
    if (!codeRow || !(await lockRow(trx, 'registration_codes', codeRow.id))) {
      return { codeError: 'REGISTRATION_CODE_INVALID' as const };
    }
    // Counted under the lock: no other registration on this code can commit in between.
    const full = await placeTaken(trx, codeRow.id, now);
    if (full) return { codeError: full };

    const memberId = randomUUID();
    await trx
      .insertInto('members')
      .values({
        id: memberId,
        email: values.email,
        first_name: values.firstName,
        last_name: values.lastName,
        gender: values.gender,
        country: values.country,
        language: values.language,
        status: activeAtOnce ? 'active' : 'pending',
        registration_code_id: codeRow.id,
        newsletter: input.newsletter,
        created_at: at,
        activated_at: activeAtOnce ? at : null,
      })
      .execute();
    await recordConsent(trx, memberId, values.country, input, now);
    if (social) await recordSocialDetails(trx, memberId, values.shoppingPreferences, social, now);
    if (activeAtOnce) {
      await spendInvitation(trx, codeRow.id);
      const voucher = await grantWelcomeVoucher(trx, memberId, codeRow.customization, now);
      return { codeError: null, memberId, outboxId: null, voucher };
    }
    const { outboxId } = await issueActivation(
      trx,
      {
        memberId,
        recipient: values.email,
        locale: values.language,
        firstName: values.firstName || null,
        invitorName: codeRow.invitor_name,
        reason: 'registration',
      },
      { secret: deps.secret, now },
    );
    return { codeError: null, memberId, outboxId, voucher: null };
  });

  if (created.codeError) return ERRORS_ONLY([], [created.codeError]);
  if (created.voucher) {
    deps.logger?.info({ registrationId: created.memberId }, 'registration: member active at once (verified address)');
    await publishActive(deps, created.memberId);
    return { ...answer('ACTIVATED', created.memberId), voucher: created.voucher, firstName: values.firstName || null };
  }
  deps.outboxSignal?.notify();
  deps.logger?.info({ registrationId: created.memberId, outboxId: created.outboxId }, 'registration: pending member created');
  return answer('FORM_FINISHED', created.memberId);
}

/**
 * A pending member's address, now vouched for by an identity provider. Answering
 * ACCOUNT_PENDING would send the person back to an inbox whose ownership the provider has
 * just confirmed — the activation link would prove nothing more — so the pending member is
 * activated instead, exactly as their link would have done (the place they held on their
 * own code is spent, their links stop working, the voucher follows their code). The data
 * of this submission replaces what the pending registration held: whoever typed that
 * address in earlier did not prove they own it, the person now does (this also disarms a
 * pre-registration of someone else's address with names of the registrant's choosing).
 */
async function activateKnownPendingMember(
  deps: RegisterDeps,
  memberId: string,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras,
  now: Date,
): Promise<RegistrationRun> {
  const known = await deps.db.selectFrom('members').select('registration_code_id').where('id', '=', memberId).executeTakeFirst();
  if (!known) return answer('ACCOUNT_ACTIVE', null);
  const result = await deps.db.transaction().execute(async (trx): Promise<RegistrationRun> => {
    // The same lock order as activateAccount: the code's row, then the member's.
    if (known.registration_code_id) await lockRow(trx, 'registration_codes', known.registration_code_id);
    if (!(await lockRow(trx, 'members', memberId))) return answer('ACCOUNT_ACTIVE', null);
    const member = await trx
      .selectFrom('members as m')
      .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
      .select(['m.status', 'm.first_name', 'm.last_name', 'm.gender', 'm.registration_code_id', 'rc.customization'])
      .where('m.id', '=', memberId)
      .executeTakeFirstOrThrow();
    // Activated (or blocked) meanwhile, e.g. through the emailed link.
    if (member.status !== 'pending') return answer('ACCOUNT_ACTIVE', null);
    return activateLocked(trx, memberId, member, input, values, social, now);
  });
  if (result.outcome === 'ACTIVATED') {
    deps.logger?.info({ registrationId: memberId }, 'registration: pending member activated (verified address)');
    await publishActive(deps, memberId);
  }
  return result;
}

/** activateKnownPendingMember's writes, under its locks (also renewPlace's, on the code it moved the member to). */
async function activateLocked(
  trx: Kysely<Database>,
  memberId: string,
  member: { first_name: string; last_name: string; gender: string | null; registration_code_id: string | null; customization: Customization | null },
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras,
  now: Date,
): Promise<RegistrationRun> {
  const firstName = values.firstName || member.first_name;
  await trx
    .updateTable('members')
    .set({
      first_name: firstName,
      last_name: values.lastName || member.last_name,
      gender: values.gender ?? member.gender,
      country: values.country,
      language: values.language,
      newsletter: input.newsletter,
    })
    .where('id', '=', memberId)
    .execute();
  await recordConsent(trx, memberId, values.country, input, now);
  await recordSocialDetails(trx, memberId, values.shoppingPreferences, social, now);
  const voucher = await activatePendingMember(
    trx,
    { id: memberId, registrationCodeId: member.registration_code_id, customization: member.customization },
    now,
  );
  return { ...answer('ACTIVATED', memberId), voucher, firstName: firstName || null };
}

/** Under the code's row lock: the code error when it has no free place, else null. */
async function placeTaken(
  trx: Kysely<Database>,
  registrationCodeId: string,
  now: Date,
): Promise<'REGISTRATION_CODE_NO_BALANCE_LEFT' | 'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS' | null> {
  const { balance } = await trx.selectFrom('registration_codes').select('balance').where('id', '=', registrationCodeId).executeTakeFirstOrThrow();
  if (balance <= 0) return 'REGISTRATION_CODE_NO_BALANCE_LEFT';
  // Pending registrations hold places until their link expires; an activation at once spends one.
  if ((await heldPlaces(trx, registrationCodeId, now)) >= balance) return 'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS';
  return null;
}

/**
 * A pending member whose link expired registers again: their place went back to their
 * code, so they take a free one on the code used now — under that code's lock, like a new
 * address — and the member moves to it. Then a fresh link and email (ACCOUNT_PENDING, no
 * id: the address was known), or, vouched for, the activation on that code (ACTIVATED).
 * Their data stays as it was, as with a resend; the vouched-for path replaces it as in
 * activateKnownPendingMember.
 */
async function renewPlace(
  deps: RegisterDeps,
  memberId: string,
  input: RegisterInput,
  values: ValidFields,
  social: SocialRegistrationExtras | null,
  now: Date,
): Promise<RegistrationRun> {
  const code = input.registrationCode.trim().toUpperCase();
  const result = await deps.db.transaction().execute(async (trx) => {
    const codeRow = await trx
      .selectFrom('registration_codes as rc')
      .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
      .select(['rc.id', 'rc.customization', 'inviter.first_name as invitor_name'])
      .where('rc.code', '=', code)
      .executeTakeFirst();
    // The same lock order as everywhere: the code's row, then the member's.
    if (!codeRow || !(await lockRow(trx, 'registration_codes', codeRow.id))) return { run: ERRORS_ONLY([], ['REGISTRATION_CODE_INVALID']) };
    if (!(await lockRow(trx, 'members', memberId))) return { run: null };
    const member = await trx
      .selectFrom('members')
      .select(['email', 'first_name', 'last_name', 'gender', 'status', 'registration_code_id'])
      .where('id', '=', memberId)
      .executeTakeFirstOrThrow();
    if (member.status !== 'pending') return { run: answer('ACCOUNT_ACTIVE', null) };
    // Renewed by a concurrent registration of the same address meanwhile.
    if (await holdsPlace(trx, memberId, now)) return { run: answer('ACCOUNT_PENDING', null) };
    const full = await placeTaken(trx, codeRow.id, now);
    if (full) return { run: ERRORS_ONLY([], [full]) };
    await trx.updateTable('members').set({ registration_code_id: codeRow.id }).where('id', '=', memberId).execute();
    if (social?.emailVerified) {
      const run = await activateLocked(trx, memberId, { ...member, registration_code_id: codeRow.id, customization: codeRow.customization }, input, values, social, now);
      return { run, activated: true };
    }
    const issued = await issueActivation(
      trx,
      {
        memberId,
        recipient: member.email,
        locale: values.language,
        firstName: member.first_name || null,
        invitorName: codeRow.invitor_name,
        reason: 'registration',
      },
      { secret: deps.secret, now },
    );
    return { run: answer('ACCOUNT_PENDING', null), outboxId: issued.outboxId };
  });
  // Deleted meanwhile (the retention pass): the address is new again.
  if (!result.run) return createMember(deps, input, values, social, now);
  if ('activated' in result) {
    deps.logger?.info({ registrationId: memberId }, 'registration: pending member activated on a renewed place (verified address)');
    await publishActive(deps, memberId);
  } else if ('outboxId' in result) {
    deps.outboxSignal?.notify();
    deps.logger?.info({ registrationId: memberId, outboxId: result.outboxId }, 'registration: expired registration took a place again');
  }
  return result.run;
}

/** The consent given with this submission (a new row each time: consents are a history). */
async function recordConsent(trx: Kysely<Database>, memberId: string, country: string, input: RegisterInput, now: Date) {
  await trx
    .insertInto('consents')
    .values({
      id: randomUUID(),
      member_id: memberId,
      country,
      terms_pk_string: input.termsPkString,
      data_policy_pk_string: input.dataPolicyPkString,
      newsletter: input.newsletter,
      accepted_at: now.toISOString(),
    })
    .execute();
}

/**
 * The shopping preferences, and the provider account — the latter only for a verified
 * address: linking an account whose address nobody proved would let whoever signed in with
 * it into the account the address's owner activates later (pre-account hijacking).
 * An identity already linked (to this or another member) stays as it is.
 */
async function recordSocialDetails(
  trx: Kysely<Database>,
  memberId: string,
  preferences: readonly ShoppingPreference[],
  social: SocialRegistrationExtras,
  now: Date,
) {
  if (preferences.length > 0) {
    await trx
      .insertInto('member_preferences')
      .values(preferences.map((preference) => ({ member_id: memberId, preference })))
      .onConflict((oc) => oc.columns(['member_id', 'preference']).doNothing())
      .execute();
  }
  if (social.emailVerified) {
    await trx
      .insertInto('member_social_identities')
      .values({ provider: social.identity.provider, subject: social.identity.subject, member_id: memberId, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
      .execute();
  }
}

async function publishActive(deps: RegisterDeps, memberId: string) {
  await deps.events?.publish({ registrationId: memberId, state: 'ACTIVE' }).catch((error: unknown) => {
    deps.logger?.warn({ err: error }, 'registration: could not publish the status change');
  });
}

async function resendActivation(deps: RegisterDeps, memberId: string, language: Locale, now: Date): Promise<RegistrationRun> {
  const hourAgo = new Date(now.getTime() - 60 * 60 * 1000).toISOString();
  const outboxId = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockRow(trx, 'members', memberId))) return null;
    const member = await trx
      .selectFrom('members as m')
      .leftJoin('registration_codes as rc', 'rc.id', 'm.registration_code_id')
      .leftJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
      .select(['m.email', 'm.first_name', 'm.status', 'inviter.first_name as invitor_name'])
      .where('m.id', '=', memberId)
      .executeTakeFirstOrThrow();
    if (member.status !== 'pending') return null;
    const recent = await trx
      .selectFrom('activations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('member_id', '=', memberId)
      .where('reason', '=', 'resend')
      .where('created_at', '>', hourAgo)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= RESENDS_PER_HOUR) return null;
    const issued = await issueActivation(
      trx,
      {
        memberId,
        recipient: member.email,
        locale: language,
        firstName: member.first_name || null,
        invitorName: member.invitor_name,
        reason: 'resend',
      },
      { secret: deps.secret, now },
    );
    return issued.outboxId;
  });
  if (outboxId) {
    deps.outboxSignal?.notify();
    deps.logger?.info({ registrationId: memberId, outboxId }, 'registration: activation email sent again');
  } else {
    deps.logger?.info({ registrationId: memberId }, 'registration: resend limit reached, no email');
  }
  return answer('ACCOUNT_PENDING', null);
}
