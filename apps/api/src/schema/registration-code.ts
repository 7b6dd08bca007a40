import { REGISTRATION_CODE_ERROR_TABLE, REGISTRATION_CODE_ERRORS } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import { enforceRateLimit } from '../rate-limit.ts';
import { checkRegistrationCode } from '../services/check-registration-code.ts';
import type { RegistrationCodeCheck } from '../services/check-registration-code.ts';
import type { CountryOption } from '../services/list-country-options.ts';
import { builder } from './builder.ts';

const RegistrationCodeErrorEnum = builder.enumType('RegistrationCodeError', {
  description: 'Why a registration code cannot be used. Every value except CUSTOMIZATION_MISSING is blocking.',
  values: Object.fromEntries(
    REGISTRATION_CODE_ERRORS.map((name) => [name, { value: name, description: REGISTRATION_CODE_ERROR_TABLE[name].description }]),
  ) as Record<RegistrationCodeError, { value: RegistrationCodeError; description: string }>,
});

const RegistrationCodeErrorDetail = builder.objectRef<{ error: RegistrationCodeError }>('RegistrationCodeErrorDetail');
RegistrationCodeErrorDetail.implement({
  fields: (t) => ({
    error: t.field({ type: RegistrationCodeErrorEnum, resolve: (detail) => detail.error }),
  }),
});

const CountryOptionRef = builder.objectRef<CountryOption>('CountryOption');
CountryOptionRef.implement({
  description: 'A country the visitor can register for, with the consent documents in force there.',
  fields: (t) => ({
    isoCode: t.exposeString('isoCode', { description: 'ISO 3166-1 alpha-2 code, e.g. DE.' }),
    termsPkString: t.exposeString('termsPkString', { description: 'Version id of the current terms and conditions.' }),
    dataPolicyPkString: t.exposeString('dataPolicyPkString', { description: 'Version id of the current data policy.' }),
  }),
});

const RegistrationCodeDetails = builder.objectRef<RegistrationCodeCheck>('RegistrationCodeDetails');
RegistrationCodeDetails.implement({
  description:
    'The result of checking a registration code. Problems are data, not GraphQL errors: the code is usable when ' +
    '`errors` is empty or holds only CUSTOMIZATION_MISSING.',
  fields: (t) => ({
    errors: t.stringList({
      description: 'RegistrationCodeError names, in the same order as errorDetails.',
      resolve: (check) => check.errors,
    }),
    errorDetails: t.field({
      type: [RegistrationCodeErrorDetail],
      resolve: (check) => check.errors.map((error) => ({ error })),
    }),
    invitorName: t.string({
      nullable: true,
      description: "The inviter's first name when the code exists and the inviter is an active member.",
      resolve: (check) => check.inviterName,
    }),
    countryOptions: t.field({
      type: [CountryOptionRef],
      description: 'All served countries with their current consent documents; empty when any error is blocking.',
      resolve: (check) => check.countryOptions,
    }),
    customization: t.string({
      nullable: true,
      description: 'The landing-text variant of the code (default, social, viral, ...); null when none.',
      resolve: (check) => check.customization,
    }),
    heldForReview: t.boolean({
      description:
        'True while the code is quarantined as leaked and this link is not one its inviter made since: a registration ' +
        'with it is held for review (register answers PENDING_REVIEW) rather than accepted. Not an error: the code stays usable.',
      resolve: (check) => check.heldForReview,
    }),
  }),
});

builder.queryField('registrationCodeDetails', (t) =>
  t.field({
    type: RegistrationCodeDetails,
    description:
      'Checks an invitation code. Trimmed and case-insensitive. Rate limited per client IP: over the limit the ' +
      'response is a GraphQL error with extensions.code RATE_LIMITED and extensions.retryAfterSeconds.',
    args: {
      registrationCode: t.arg.string({ required: true }),
      validityTimestamp: t.arg.string({
        required: false,
        description: 'The signed expiry from a generated registration link (?validityTimestamp=...).',
      }),
      slug: t.arg.string({ required: false, description: 'The landing page slug (/{slug}) the code was entered on.' }),
      referrer: t.arg.string({ required: false, description: 'document.referrer of the landing page.' }),
    },
    resolve: async (_root, args, ctx) => {
      await enforceRateLimit(ctx.limiters.registrationCodeCheck, ctx.requestNetwork);
      return checkRegistrationCode(
        { db: ctx.db, secret: ctx.env.APP_SECRET, referrerBlocklist: ctx.settings.referrerBlocklist, now: ctx.now, codeWatch: ctx.codeWatch },
        args,
      );
    },
  }),
);
