/** The field rules of every registration: every field checked, every problem reported. */
import { isLocale } from '@velvet/i18n/locales';
import {
  PREFERENCES_MESSAGE_ID,
  REGISTRATION_MESSAGE_IDS,
  email as emailField,
  firstName as firstNameField,
  gender as genderField,
  lastName as lastNameField,
} from '@velvet/validation/registration';
import type { RegisterInput } from '@velvet/validation/registration';
import type { Gender } from '@velvet/validation/registration-options';
import type { z } from 'zod';
import type { Db } from '../../db/connect.ts';
import { checkMailAddress } from '../../domain/mail-domains.ts';
import type { MailDomainChecker } from '../../domain/mail-domains.ts';
import { listCountryOptions } from '../list-country-options.ts';
import type { FieldError, RegistrationField, SocialRegistrationExtras, ValidFields } from './outcomes.ts';

function firstIssue<T>(schema: z.ZodType<T>, value: unknown): { ok: true; value: T } | { ok: false; code: string } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, code: parsed.error.issues[0]?.message ?? 'validation.invalid' };
}

/** Every field checked, every problem reported (not only the first). */
export async function validateFields(
  db: Db,
  input: RegisterInput,
  social: SocialRegistrationExtras | null,
  now: Date,
  mailDomains: MailDomainChecker | null = null,
): Promise<{ errors: FieldError[]; values: ValidFields | null }> {
  const errors: FieldError[] = [];
  const add = (field: RegistrationField, code: string) => errors.push({ field, code });

  const email = firstIssue(emailField, input.email);
  if (!email.ok) add('email', email.code);
  // An address that can receive mail (ADR 042); a provider's verified address needs no DNS.
  const mailbox = email.ok ? await checkMailAddress(email.value, social?.emailVerified ? null : mailDomains) : null;
  if (mailbox && !mailbox.ok) add('email', mailbox.messageId);

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

  if (errors.length > 0 || !email.ok || !mailbox?.ok || !option || !isLocale(language)) return { errors, values: null };
  return {
    errors,
    values: { email: email.value, gender, ...names, country: option.isoCode, language, shoppingPreferences, mailDomainUnverified: mailbox.unverified },
  };
}
