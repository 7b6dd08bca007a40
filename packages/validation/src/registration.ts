/**
 * Field rules of the registration form (spec §3, §5), shared by the web form and the API.
 * Every error message is a message id of @velvet/i18n, never text, so each language shows
 * its own words. The API reports the same ids as `FieldError.code`.
 */
import { z } from 'zod';
import { asciiDomain } from './email-domain.ts';
import { GENDERS, SHOPPING_PREFERENCES, type Gender } from './registration-options.ts';

/** RFC 5321 limits a forward path to 256 octets including the angle brackets. */
const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 50;

/** The message ids these schemas (and the API) report. */
export const REGISTRATION_MESSAGE_IDS = {
  email: 'validation.email',
  emailTooLong: 'validation.emailTooLong',
  emailInternationalLocalPart: 'validation.emailInternationalLocalPart',
  gender: 'validation.gender',
  firstName: 'validation.firstName',
  lastName: 'validation.lastName',
  nameTooLong: 'validation.nameTooLong',
  invalidCharacters: 'validation.invalidCharacters',
  country: 'validation.country',
  terms: 'validation.terms',
  legalVersion: 'validation.legalVersion',
  language: 'validation.language',
} as const;

/**
 * RFC 5322 "dot-atom" local part, without the quoted form no shop accepts, in ASCII: letters
 * beyond it need SMTPUTF8 (RFC 6531) on every server along the way, which we cannot promise.
 */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** The same shape with letters and digits of any script: an address that exists, but we cannot mail. */
const INTERNATIONAL_LOCAL_PART = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;

/**
 * An address as mail servers take it (ADR 042): its domain in ASCII, so `anna@müller.de` and
 * `anna@xn--mller-kva.de` are one address wherever it is stored or compared. A message id when
 * it cannot be one; the one for an address that exists but has letters beyond ASCII before
 * the @, which plain SMTP cannot deliver to, says so.
 */
function deliverableAddress(typed: string): { address: string } | { error: string } {
  const at = typed.lastIndexOf('@');
  const local = typed.slice(0, at);
  const domain = at > 0 ? asciiDomain(typed.slice(at + 1)) : null;
  if (!domain || local.length > 64) return { error: REGISTRATION_MESSAGE_IDS.email };
  if (!LOCAL_PART.test(local)) {
    const international = INTERNATIONAL_LOCAL_PART.test(local);
    return { error: international ? REGISTRATION_MESSAGE_IDS.emailInternationalLocalPart : REGISTRATION_MESSAGE_IDS.email };
  }
  const address = `${local}@${domain}`;
  return address.length > EMAIL_MAX_LENGTH ? { error: REGISTRATION_MESSAGE_IDS.emailTooLong } : { address };
}

/**
 * Trimmed, in Unicode NFC, lower-cased, at most 254 characters (validation.emailTooLong, and
 * then nothing else: one message per problem), local part at most 64; the value is the address
 * with its domain in ASCII (`anna@müller.de` → `anna@xn--mller-kva.de`).
 */
export const email = z
  .string({ error: REGISTRATION_MESSAGE_IDS.email })
  .trim()
  .transform((value) => value.normalize('NFC').toLowerCase())
  // Conform's coercion reaches the inner string too (a blank is undefined there): it says the same.
  .pipe(z.string({ error: REGISTRATION_MESSAGE_IDS.email }).max(EMAIL_MAX_LENGTH, { error: REGISTRATION_MESSAGE_IDS.emailTooLong, abort: true }))
  .transform((typed, ctx) => {
    const checked = deliverableAddress(typed);
    if ('address' in checked) return checked.address;
    ctx.issues.push({ code: 'custom', message: checked.error, input: typed });
    return z.NEVER;
  });

/** A form that asks only for an address: membership application, waiting list, product share. */
export const emailForm = z.object({ email });

export const gender = z.enum(GENDERS, { error: REGISTRATION_MESSAGE_IDS.gender });

/**
 * Letters of any alphabet (with their diacritics, precomposed or combining), spaces,
 * apostrophes (' and ’), hyphens and dots, with at least one letter. "Zoë", "Łukasz",
 * "O’Brien-Smith", "Dr. Ana Núñez" pass; digits, symbols and emoji do not. Greek and
 * Cyrillic letters pass too: Greece, Cyprus and Bulgaria are among the served countries.
 */
const NAME_PATTERN = /^[\p{L}\p{M} '’.-]+$/u;
const HAS_LETTER = /\p{L}/u;

/**
 * A name made of spaces is a missing name. Conform's coercion turns the trimmed "" into
 * undefined before the inner string sees it, so the inner string carries the message too;
 * each check aborts the rest, so a field never shows two messages.
 */
function name(missing: string) {
  return z
    .string({ error: missing })
    .transform((value) => value.normalize('NFC').replace(/\s+/g, ' ').trim())
    .pipe(
      z
        .string({ error: missing })
        .min(1, { error: missing, abort: true })
        .max(NAME_MAX_LENGTH, { error: REGISTRATION_MESSAGE_IDS.nameTooLong, abort: true })
        .refine((value) => NAME_PATTERN.test(value) && HAS_LETTER.test(value), {
          error: REGISTRATION_MESSAGE_IDS.invalidCharacters,
        }),
    );
}

export const firstName = name(REGISTRATION_MESSAGE_IDS.firstName);
export const lastName = name(REGISTRATION_MESSAGE_IDS.lastName);

/**
 * An ISO 3166-1 alpha-2 code, upper-cased. Whether the club serves it is decided by the
 * registration code's country options (the API checks; the form offers only those).
 */
export const country = z
  .string({ error: REGISTRATION_MESSAGE_IDS.country })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: REGISTRATION_MESSAGE_IDS.country });

/** The terms and privacy policy must be accepted; the newsletter is optional. */
export const termsAccepted = z.literal(true, { error: REGISTRATION_MESSAGE_IDS.terms });
/** Only an explicit "on" is consent; anything else a client sends (tampered) is no consent. */
const newsletter = z.boolean().default(false).catch(false);

/** The fields of the one-step (default) form; the lean flow asks the same, over two steps. */
export const registrationForm = z.object({
  email,
  gender,
  firstName,
  lastName,
  country,
  newsletter,
  termsAccepted,
});

/** Step 1 of the lean flow: the address, country and consent. */
export const leanStep1Form = registrationForm.pick({ email: true, country: true, newsletter: true, termsAccepted: true });
/** Step 2 of the lean flow (spec §3: gender, first name, last name, Continue). */
export const leanStep2Form = registrationForm.pick({ gender: true, firstName: true, lastName: true });

/**
 * The registration flow values of spec §3, as the web tracks where a registration stands: a
 * campaign starts in `default` (one step), `leanStep1` (the email first) or
 * `socialRegistration` (the identity provider first); the lean flow moves on to `leanStep2`
 * (the names) once its first step is submitted (ADR 008).
 */
const REGISTRATION_FLOWS = ['default', 'leanStep1', 'leanStep2', 'socialRegistration'] as const;
export type RegistrationFlow = (typeof REGISTRATION_FLOWS)[number];

export function isRegistrationFlow(value: unknown): value is RegistrationFlow {
  return typeof value === 'string' && (REGISTRATION_FLOWS as readonly string[]).includes(value);
}

/** The GraphQL enum RegistrationFlow: which form a registration came through. */
type ApiRegistrationFlow = 'DEFAULT' | 'LEAN' | 'SOCIAL';

/** Mutation.register's input (schema.graphql `RegisterInput`), as the web sends it and the API reads it. */
export interface RegisterInput {
  registrationCode: string;
  validityTimestamp?: string | null;
  slug?: string | null;
  referrer?: string | null;
  email: string;
  gender?: Gender | null;
  firstName?: string | null;
  lastName?: string | null;
  country: string;
  newsletter: boolean;
  termsAccepted: boolean;
  termsPkString: string;
  dataPolicyPkString: string;
  language: string;
  flow: ApiRegistrationFlow;
  /** The solved proof of work (sign-up-guards.ts); not needed with a signed single-use invitation link. */
  proofOfWork?: string | null;
}

/**
 * The outcomes of Mutation.register (the social second step adds ACTIVATED). PENDING_REVIEW: the
 * code is quarantined as leaked and the registration waits for a check (issue 12 §4, ADR 043).
 */
export type RegistrationOutcome = 'FORM_FINISHED' | 'ACCOUNT_ACTIVE' | 'ACCOUNT_PENDING' | 'PENDING_REVIEW';

/** The social second step's "choose at least one". */
export const PREFERENCES_MESSAGE_ID = 'validation.preferences';

/** At least one of the offered preferences, each at most once. */
const shoppingPreferences = z
  .array(z.enum(SHOPPING_PREFERENCES, { error: PREFERENCES_MESSAGE_ID }), { error: PREFERENCES_MESSAGE_ID })
  .min(1, { error: PREFERENCES_MESSAGE_ID })
  .transform((values) => [...new Set(values)]);

/** A field the page did not show: whatever arrives for it is dropped. */
const notAsked = z.string().optional().transform(() => undefined);

/** Which names the page asks for: those the provider did not give (in a form we accept). */
export interface AskedNames {
  firstName: boolean;
  lastName: boolean;
}

/**
 * The social second step's form (spec §2, §3 "social-registration-2nd-step"): what the
 * provider did not tell us, the country with its legal documents, consent, and shopping
 * preferences.
 */
export function socialSecondStepForm(ask: AskedNames) {
  return z.object({
    gender,
    firstName: ask.firstName ? firstName : notAsked,
    lastName: ask.lastName ? lastName : notAsked,
    country,
    newsletter,
    termsAccepted,
    shoppingPreferences,
  });
}
