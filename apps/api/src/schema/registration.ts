import { GraphQLError } from 'graphql';
import { GENDERS, type Gender } from '@velvet/validation/registration-options';
import { enforceRateLimit } from '../rate-limit.ts';
import { activateAccount, registrationStatus } from '../services/activate-account.ts';
import type { ActivationResult } from '../services/activate-account.ts';
import type { IssuedWelcomeVoucher } from '../domain/member-activation.ts';
import { issueMemberToken } from '../auth/member-identity.ts';
import { registerMember } from '../services/register-member.ts';
import { requestActivationLink } from '../services/request-activation-link.ts';
import type { RequestActivationLinkResult } from '../services/request-activation-link.ts';
import type { RegisterResult } from '../services/registration/outcomes.ts';
import type { Db } from '../db/connect.ts';
import type { RegistrationEvents, RegistrationStatusEvent } from '../domain/registration-events.ts';
import { builder } from './builder.ts';
import { EMAIL_SUGGESTION_DESCRIPTION, withEmailSuggestion, type EmailSuggested } from './email-suggestion.ts';
import type { UserError } from '@velvet/validation/user-errors';
import { UserErrorRef, userErrorsOf } from './user-errors.ts';

export const GenderEnum = builder.enumType('Gender', {
  description: 'Form of address: Ms/Mrs is FEMALE, Mr is MALE.',
  values: Object.fromEntries(GENDERS.map((g) => [g, { value: g }])) as Record<Gender, { value: Gender }>,
});

const RegistrationFlowEnum = builder.enumType('RegistrationFlow', {
  description: 'Which registration form was used. DEFAULT and LEAN require gender and names; SOCIAL takes them when given.',
  values: {
    DEFAULT: { value: 'DEFAULT', description: 'The one-step form.' },
    LEAN: { value: 'LEAN', description: 'The lean two-step form, submitted after step 2.' },
    SOCIAL: { value: 'SOCIAL', description: 'Registration with an external identity provider; gender and names are optional.' },
  } as const,
});

const RegistrationOutcomeEnum = builder.enumType('RegistrationOutcome', {
  values: {
    FORM_FINISHED: { value: 'FORM_FINISHED', description: 'A pending account was created and the activation email is on its way.' },
    ACCOUNT_ACTIVE: { value: 'ACCOUNT_ACTIVE', description: 'The address already has an account: log in (the password can be reset there).' },
    ACCOUNT_PENDING: {
      value: 'ACCOUNT_PENDING',
      description: 'The address awaits activation; a new activation email was sent (at most 3 an hour).',
    },
    PENDING_REVIEW: {
      value: 'PENDING_REVIEW',
      description:
        'The invitation code is quarantined as leaked: the registration is held until an operator checks the code; no ' +
        'email is sent now. Show a kind page that leads on to membership interest (issue 12 §4).',
    },
  } as const,
});

const RegisterInputRef = builder.inputType('RegisterInput', {
  description: 'The registration form (spec §3). Every field is validated on the server.',
  fields: (t) => ({
    registrationCode: t.string({ required: true, description: 'The invitation code (trimmed, case-insensitive).' }),
    validityTimestamp: t.string({ required: false, description: 'From a generated registration link.' }),
    slug: t.string({ required: false, description: 'The landing page slug the code was entered on.' }),
    referrer: t.string({
      required: false,
      description: 'The external referrer the invitation arrived with (document.referrer of its arrival); a blocked one is REFERER_INVALID.',
    }),
    email: t.string({ required: true, description: 'Trimmed and lower-cased; at most 254 characters.' }),
    gender: t.field({ type: GenderEnum, required: false, description: 'Required for DEFAULT and LEAN.' }),
    firstName: t.string({ required: false, description: '1-50 letters, spaces, apostrophes, hyphens, dots. Required for DEFAULT and LEAN.' }),
    lastName: t.string({ required: false, description: '1-50 letters, spaces, apostrophes, hyphens, dots. Required for DEFAULT and LEAN.' }),
    country: t.string({ required: true, description: "ISO code of one of the code's countryOptions." }),
    newsletter: t.boolean({ required: true, description: 'Newsletter consent (optional, can be withdrawn any time).' }),
    termsAccepted: t.boolean({ required: true, description: 'Terms and privacy policy accepted; must be true.' }),
    termsPkString: t.string({ required: true, description: "The termsPkString of the chosen country's option." }),
    dataPolicyPkString: t.string({ required: true, description: "The dataPolicyPkString of the chosen country's option." }),
    language: t.string({ required: true, description: 'en, de, fr, it, nl, pl or sv: the language of the emails.' }),
    flow: t.field({ type: RegistrationFlowEnum, required: true }),
    proofOfWork: t.string({
      required: false,
      description:
        'The solved Query.proofOfWorkChallenge of form REGISTRATION (not needed with a signed single-use invitation link). ' +
        'Missing, wrong or used before: the answer is FORM_FINISHED and nothing is written or sent.',
    }),
  }),
});

const RegisterPayloadRef = builder.objectRef<RegisterResult & EmailSuggested>('RegisterPayload');
RegisterPayloadRef.implement({
  description: 'The result of a registration. Refusals are data: outcome is null exactly when userErrors is non-empty.',
  fields: (t) => ({
    outcome: t.field({ type: RegistrationOutcomeEnum, nullable: true, resolve: (r) => r.outcome }),
    memberId: t.string({
      nullable: true,
      description: 'For FORM_FINISHED: subscribe to registrationStatus with it. Never for ACCOUNT_PENDING: an address already known is not handed to whoever typed it.',
      resolve: (r) => r.memberId,
    }),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => userErrorsOf(r) }),
    resendLimitReached: t.boolean({
      description:
        'ACCOUNT_PENDING only: the activation email of this address was already sent again 3 times in the last hour (by its visitor or by support), so none went out now. False otherwise.',
      resolve: (r) => r.resendLimitReached === true,
    }),
    emailSuggestion: t.string({ nullable: true, description: EMAIL_SUGGESTION_DESCRIPTION, resolve: (r) => r.emailSuggestion }),
  }),
});

const ActivationOutcomeEnum = builder.enumType('ActivationOutcome', {
  values: {
    ACTIVATED: { value: 'ACTIVATED', description: 'The account is active; the welcome voucher is in the payload.' },
    ALREADY_ACTIVE: {
      value: 'ALREADY_ACTIVE',
      description: "The member's account was active before this call (the link was used already, or a newer one was): nothing changed.",
    },
  } as const,
});

export const WelcomeVoucherRef = builder.objectRef<IssuedWelcomeVoucher>('WelcomeVoucher');
WelcomeVoucherRef.implement({
  description: 'The first-order voucher given on activation (valid 2 weeks).',
  fields: (t) => ({
    percent: t.exposeInt('percent', { description: '10, 15 or 20.' }),
    minimumOrderValue: t.int({
      nullable: true,
      description: 'Minimum order value in whole units of currency; null when there is none.',
      resolve: (v) => v.minimumOrderValue,
    }),
    currency: t.exposeString('currency', { description: 'ISO 4217, EUR.' }),
    validUntil: t.exposeString('validUntil', { description: 'ISO 8601 time the voucher expires.' }),
    code: t.exposeString('code'),
  }),
});

const ActivateAccountPayloadRef = builder.objectRef<ActivationResult>('ActivateAccountPayload');
ActivateAccountPayloadRef.implement({
  description: 'outcome is null exactly when userErrors holds ACTIVATION_LINK_UNKNOWN or ACTIVATION_LINK_UNUSABLE.',
  fields: (t) => ({
    outcome: t.field({
      type: ActivationOutcomeEnum,
      nullable: true,
      resolve: (r) => (r.outcome === 'ACTIVATED' || r.outcome === 'ALREADY_ACTIVE' ? r.outcome : null),
    }),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => activationUserErrors(r.outcome) }),
    voucher: t.field({ type: WelcomeVoucherRef, nullable: true, description: 'Set when ACTIVATED.', resolve: (r) => r.voucher }),
    firstName: t.string({ nullable: true, description: 'Set when ACTIVATED or ALREADY_ACTIVE (null when the member gave none).', resolve: (r) => r.firstName }),
    language: t.string({ nullable: true, description: "The member's language, also for ALREADY_ACTIVE and ACTIVATION_LINK_UNUSABLE.", resolve: (r) => r.language }),
    memberId: t.string({ nullable: true, description: 'Set for ACTIVATED, ALREADY_ACTIVE and ACTIVATION_LINK_UNUSABLE.', resolve: (r) => r.memberId }),
    memberToken: t.string({
      nullable: true,
      description:
        'Set when ACTIVATED: identifies the new customer for 7 days (spec §9: the web keeps it in the auth cookie and ' +
        'sends it as `Authorization: Bearer`). Never issued for a link that was already used.',
      resolve: (r, _args, ctx) =>
        r.outcome === 'ACTIVATED' && r.memberId ? issueMemberToken(ctx.env.APP_SECRET, r.memberId) : null,
    }),
  }),
});

function activationUserErrors(outcome: ActivationResult['outcome']): UserError[] {
  if (outcome === 'NOT_FOUND') return [{ code: 'ACTIVATION_LINK_UNKNOWN', field: 'activationId', messageId: 'activationError.invalidLink.text' }];
  if (outcome === 'FAILED') return [{ code: 'ACTIVATION_LINK_UNUSABLE', field: 'activationId', messageId: 'activationError.failed.text' }];
  return [];
}

const RegistrationStateEnum = builder.enumType('RegistrationState', {
  values: {
    PENDING: { value: 'PENDING', description: 'Awaiting activation from the email.' },
    ACTIVE: { value: 'ACTIVE', description: 'Activated.' },
  } as const,
});

const RegistrationStatusRef = builder.objectRef<RegistrationStatusEvent>('RegistrationStatus');
RegistrationStatusRef.implement({
  fields: (t) => ({
    memberId: t.exposeString('memberId'),
    state: t.field({ type: RegistrationStateEnum, resolve: (s) => s.state }),
  }),
});

builder.mutationField('register', (t) =>
  t.field({
    type: RegisterPayloadRef,
    description:
      'Registers with an invitation code (spec §4). Rate limited per client network (an IPv4 address, an IPv6 /64) and per ' +
      'code: over a limit a GraphQL error with extensions.code RATE_LIMITED and extensions.retryAfterSeconds. A submission ' +
      'without a valid proof of work, or of a mailbox signed up too often lately, is answered FORM_FINISHED with nothing ' +
      'written or sent (ADR 041).',
    args: { input: t.arg({ type: RegisterInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx.limiters.register, ctx.requestNetwork);
      const result = await registerMember(
        {
          db: ctx.db,
          secret: ctx.env.APP_SECRET,
          referrerBlocklist: ctx.settings.referrerBlocklist,
          outboxSignal: ctx.outboxSignal,
          logger: ctx.logger,
          now: ctx.now,
          gate: ctx.signUpGate,
          mailDomains: ctx.mailDomains,
          codeWatch: ctx.codeWatch,
          codeLimiter: ctx.limiters.registrationsPerCode,
        },
        input,
      );
      return withEmailSuggestion(result, input.email);
    },
  }),
);

builder.mutationField('activateAccount', (t) =>
  t.field({
    type: ActivateAccountPayloadRef,
    description: 'Activates the account of an emailed link (?activationId=...). Rate limited per client IP (RATE_LIMITED).',
    args: { activationId: t.arg.string({ required: true }) },
    resolve: async (_root, { activationId }, ctx) => {
      await enforceRateLimit(ctx.limiters.activateAccount, ctx.requestNetwork);
      return activateAccount({ db: ctx.db, events: ctx.events, logger: ctx.logger, now: ctx.now, outboxSignal: ctx.outboxSignal }, activationId);
    },
  }),
);

builder.queryField('registrationStatus', (t) =>
  t.field({
    type: RegistrationStatusRef,
    nullable: true,
    description: 'PENDING or ACTIVE; null when unknown. The fallback of Subscription.registrationStatus.',
    args: { memberId: t.arg.string({ required: true }) },
    resolve: (_root, { memberId }, ctx) => registrationStatus(ctx.db, memberId),
  }),
);

builder.subscriptionField('registrationStatus', (t) =>
  t.field({
    type: RegistrationStatusRef,
    description:
      'The current state first, then every change; completes after ACTIVE. An unknown id is a GraphQL error with ' +
      'extensions.code NOT_FOUND.',
    args: { memberId: t.arg.string({ required: true }) },
    subscribe: (_root, { memberId }, ctx) => statusUpdates(ctx.events, ctx.db, memberId),
    resolve: (event: RegistrationStatusEvent) => event,
  }),
);

/**
 * The subscription's stream. An async generator cannot be stopped while it awaits the next
 * event: graphql-ws's return() on a socket that closed — the client restarting (4205), ending a
 * frozen socket (4499), giving up on an acknowledgement (4504), a tab closed — would wait for
 * an event that may never come, keeping the listener of every socket that went away. So return()
 * ends the event queue first, which lets the generator finish at once.
 */
function statusUpdates(events: RegistrationEvents, db: Db, memberId: string): AsyncIterableIterator<RegistrationStatusEvent> {
  // Listen first, then read: a change between the two is not lost.
  const updates = events.subscribe(memberId.trim().toLowerCase());
  const stream = (async function* () {
    try {
      const current = await registrationStatus(db, memberId);
      if (!current) throw new GraphQLError('Unknown registration.', { extensions: { code: 'NOT_FOUND' } });
      yield current;
      if (current.state === 'ACTIVE') return;
      for await (const event of updates) {
        yield event;
        if (event.state === 'ACTIVE') return;
      }
    } finally {
      await updates.return?.();
    }
  })();
  const iterator: AsyncIterableIterator<RegistrationStatusEvent> = {
    next: () => stream.next(),
    return: async () => {
      await updates.return?.();
      return stream.return(undefined);
    },
    throw: async (error: unknown) => {
      await updates.return?.();
      return stream.throw(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

const RequestActivationLinkPayloadRef = builder.objectRef<RequestActivationLinkResult & EmailSuggested>('RequestActivationLinkPayload');
RequestActivationLinkPayloadRef.implement({
  description: 'sent is true for every well-formed address, whether or not an email went out: the answer tells no one who has an account.',
  fields: (t) => ({
    sent: t.exposeBoolean('sent'),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => userErrorsOf(r) }),
    emailSuggestion: t.string({ nullable: true, description: EMAIL_SUGGESTION_DESCRIPTION, resolve: (r) => r.emailSuggestion }),
  }),
});

builder.mutationField('requestActivationLink', (t) =>
  t.field({
    type: RequestActivationLinkPayloadRef,
    description:
      "The activation error page's \"send me a new link\" (ADR 057): a pending account of the address gets a fresh activation email, " +
      'older links void, at most 3 an hour per person (beyond, the same answer and no email); any other address gets the same answer ' +
      'and no email. language: en, de, fr, it, nl, pl or sv (else en). Rate limited per client IP together with the other public forms (RATE_LIMITED).',
    args: { email: t.arg.string({ required: true }), language: t.arg.string({ required: false }) },
    resolve: async (_root, { email, language }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      const result = await requestActivationLink({ db: ctx.db, secret: ctx.env.APP_SECRET, outboxSignal: ctx.outboxSignal, logger: ctx.logger, now: ctx.now }, { email, language });
      return withEmailSuggestion(result, email);
    },
  }),
);
