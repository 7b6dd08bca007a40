import { SHOPPING_PREFERENCES, type ShoppingPreference } from '@velvet/validation/registration-options';
import { enforceRateLimit } from '../rate-limit.ts';
import { completeSocialRegistration } from '../services/complete-social-registration.ts';
import { issueMemberToken } from '../auth/member-identity.ts';
import type { SocialRegistrationResult } from '../services/complete-social-registration.ts';
import { builder } from './builder.ts';
import { GenderEnum, WelcomeVoucherRef } from './registration.ts';
import { UserErrorRef, userErrorsOf } from './user-errors.ts';

const ShoppingPreferenceEnum = builder.enumType('ShoppingPreference', {
  description: 'What a member likes to shop (the social second step).',
  values: Object.fromEntries(SHOPPING_PREFERENCES.map((p) => [p, { value: p }])) as Record<ShoppingPreference, { value: ShoppingPreference }>,
});

const SocialRegistrationOutcomeEnum = builder.enumType('SocialRegistrationOutcome', {
  values: {
    ACTIVATED: {
      value: 'ACTIVATED',
      description: 'The provider verified the address: the account is active (no email); voucher and firstName are set.',
    },
    FORM_FINISHED: {
      value: 'FORM_FINISHED',
      description: 'The provider did not verify the address: a pending account was created and the activation email is on its way.',
    },
    ACCOUNT_ACTIVE: { value: 'ACCOUNT_ACTIVE', description: 'The address already has an account: log in.' },
    ACCOUNT_PENDING: {
      value: 'ACCOUNT_PENDING',
      description: 'The (unverified) address awaits activation; a new activation email was sent (at most 3 an hour).',
    },
    PENDING_REVIEW: {
      value: 'PENDING_REVIEW',
      description: 'The invitation code is quarantined as leaked: the registration is held until an operator checks the code (issue 12 §4).',
    },
  } as const,
});

const CompleteSocialRegistrationInputRef = builder.inputType('CompleteSocialRegistrationInput', {
  description: 'The social second step. The email address is always the one in the token.',
  fields: (t) => ({
    token: t.string({ required: true, description: 'The signed social token the sign-in callback issued (valid 15 minutes).' }),
    registrationCode: t.string({ required: true, description: 'The invitation code (trimmed, case-insensitive).' }),
    validityTimestamp: t.string({ required: false, description: 'From a generated registration link.' }),
    slug: t.string({ required: false, description: 'The landing page slug the code was entered on.' }),
    referrer: t.string({
      required: false,
      description: 'The external referrer the invitation arrived with (document.referrer of its arrival); a blocked one is REFERER_INVALID.',
    }),
    gender: t.field({ type: GenderEnum, required: false, description: 'Optional.' }),
    firstName: t.string({ required: false, description: "Optional; the provider's first name when absent." }),
    lastName: t.string({ required: false, description: "Optional; the provider's last name when absent." }),
    country: t.string({ required: true, description: "ISO code of one of the code's countryOptions." }),
    newsletter: t.boolean({ required: true, description: 'Newsletter consent (optional, can be withdrawn any time).' }),
    termsAccepted: t.boolean({ required: true, description: 'Terms and privacy policy accepted; must be true.' }),
    termsPkString: t.string({ required: true, description: "The termsPkString of the chosen country's option." }),
    dataPolicyPkString: t.string({ required: true, description: "The dataPolicyPkString of the chosen country's option." }),
    language: t.string({ required: true, description: 'en, de, fr, it, nl, pl or sv.' }),
    shoppingPreferences: t.field({
      type: [ShoppingPreferenceEnum],
      required: true,
      description: 'At least one (else the userError shoppingPreferences / validation.preferences).',
    }),
  }),
});

const CompleteSocialRegistrationPayloadRef = builder.objectRef<SocialRegistrationResult>('CompleteSocialRegistrationPayload');
CompleteSocialRegistrationPayloadRef.implement({
  description:
    'outcome is null exactly when userErrors is non-empty. A refused token (TOKEN_*) is reported alone (nothing else is ' +
    'checked, nothing written).',
  fields: (t) => ({
    outcome: t.field({ type: SocialRegistrationOutcomeEnum, nullable: true, resolve: (r) => r.outcome }),
    memberId: t.string({
      nullable: true,
      description: 'For ACTIVATED and FORM_FINISHED: the new member id (subscribe to registrationStatus with it). Never for ACCOUNT_PENDING: an address already known is not handed to whoever typed it.',
      resolve: (r) => r.memberId,
    }),
    voucher: t.field({ type: WelcomeVoucherRef, nullable: true, description: 'Set when ACTIVATED.', resolve: (r) => r.voucher }),
    firstName: t.string({ nullable: true, description: 'Set when ACTIVATED (null when none is known).', resolve: (r) => r.firstName }),
    memberToken: t.string({
      nullable: true,
      description: 'Set when ACTIVATED: identifies the new customer for 7 days (Bearer; the web keeps it in the auth cookie).',
      resolve: (r, _args, ctx) =>
        r.outcome === 'ACTIVATED' && r.memberId ? issueMemberToken(ctx.env.APP_SECRET, r.memberId) : null,
    }),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => userErrorsOf(r) }),
  }),
});

builder.mutationField('completeSocialRegistration', (t) =>
  t.field({
    type: CompleteSocialRegistrationPayloadRef,
    description:
      'Completes a registration started with an external identity provider (the social second step). Rate limited per ' +
      'client IP together with register (RATE_LIMITED).',
    args: { input: t.arg({ type: CompleteSocialRegistrationInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx.limiters.register, ctx.requestNetwork);
      return completeSocialRegistration(
        {
          db: ctx.db,
          secret: ctx.env.APP_SECRET,
          referrerBlocklist: ctx.settings.referrerBlocklist,
          outboxSignal: ctx.outboxSignal,
          events: ctx.events,
          logger: ctx.logger,
          now: ctx.now,
          mailDomains: ctx.mailDomains,
          codeWatch: ctx.codeWatch,
        },
        input,
      );
    },
  }),
);
