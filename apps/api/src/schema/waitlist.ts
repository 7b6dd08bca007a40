import { enforceRateLimit } from '../rate-limit.ts';
import { describeLobbyToken, joinWaitlist, leaveWaitlist } from '../services/join-waitlist.ts';
import type { JoinWaitlistResult, LobbyTokenDetails } from '../services/join-waitlist.ts';
import { requestLobbyLink } from '../services/request-lobby-link.ts';
import type { RequestLobbyLinkResult } from '../services/request-lobby-link.ts';
import { builder } from './builder.ts';
import { EMAIL_SUGGESTION_DESCRIPTION, withEmailSuggestion, type EmailSuggested } from './email-suggestion.ts';
import { UserErrorRef, userErrorsOf } from './user-errors.ts';

const JoinWaitlistOutcomeEnum = builder.enumType('JoinWaitlistOutcome', {
  values: {
    JOINED: { value: 'JOINED', description: 'The address is now on the waiting list.' },
    ALREADY_ON_LIST: { value: 'ALREADY_ON_LIST', description: 'The address was already on the waiting list; nothing changed.' },
  } as const,
});

const JoinWaitlistPayloadRef = builder.objectRef<JoinWaitlistResult>('JoinWaitlistPayload');
JoinWaitlistPayloadRef.implement({
  description: 'outcome is null exactly when userErrors (a refused token) is non-empty.',
  fields: (t) => ({
    outcome: t.field({ type: JoinWaitlistOutcomeEnum, nullable: true, resolve: (r) => r.outcome }),
    email: t.string({ nullable: true, description: "The token's address (set with outcome).", resolve: (r) => r.email }),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => userErrorsOf(r) }),
  }),
});

const LobbyTokenDetailsRef = builder.objectRef<LobbyTokenDetails>('LobbyTokenDetails');
LobbyTokenDetailsRef.implement({
  description: 'What a lobby link says: email is null exactly when userErrors (a refused link) is non-empty.',
  fields: (t) => ({
    email: t.string({ nullable: true, resolve: (r) => r.email }),
    onWaitlist: t.boolean({
      description: "Whether the token's address is already on the waiting list (false for a refused token): the lobby then says so instead of offering to join.",
      resolve: (r) => r.onWaitlist,
    }),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty when the token is good.', resolve: (r) => userErrorsOf(r) }),
  }),
});

builder.queryField('lobbyToken', (t) =>
  t.field({
    type: LobbyTokenDetailsRef,
    description:
      'The address a lobby link (?token= of /lobby: an emailed 22-character reference or a signed lobby token) names, and whether ' +
      'it is on the waiting list already, for the lobby page; unknown is TOKEN_INVALID, past its expiry TOKEN_EXPIRED. Nothing is written.',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => describeLobbyToken({ secret: ctx.env.APP_SECRET, db: ctx.db }, token, ctx.now),
  }),
);

builder.mutationField('joinWaitlist', (t) =>
  t.field({
    type: JoinWaitlistPayloadRef,
    description:
      "Puts the lobby link's address (token: its reference or signed token) on the waiting list (joining is the consent the lobby text asks for). " +
      'language: en, de, fr, it, nl, pl or sv for the later invitation (else en). Rate limited per client IP together with ' +
      'applyForMembership (RATE_LIMITED).',
    args: { token: t.arg.string({ required: true }), language: t.arg.string({ required: false }) },
    resolve: async (_root, { token, language }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return joinWaitlist({ db: ctx.db, secret: ctx.env.APP_SECRET, logger: ctx.logger, now: ctx.now, outboxSignal: ctx.outboxSignal }, { token, language });
    },
  }),
);

const LeaveWaitlistOutcomeEnum = builder.enumType('LeaveWaitlistOutcome', {
  values: {
    LEFT: { value: 'LEFT', description: "The reference's entry is off the waiting list." },
    NOT_FOUND: { value: 'NOT_FOUND', description: 'No entry has this reference: unknown, malformed, or used already.' },
  } as const,
});

const LeaveWaitlistPayloadRef = builder.objectRef<{ outcome: 'LEFT' | 'NOT_FOUND' }>('LeaveWaitlistPayload');
LeaveWaitlistPayloadRef.implement({
  fields: (t) => ({ outcome: t.field({ type: LeaveWaitlistOutcomeEnum, resolve: (r) => r.outcome }) }),
});

builder.mutationField('leaveWaitlist', (t) =>
  t.field({
    type: LeaveWaitlistPayloadRef,
    description:
      'Takes an address off the waiting list by the reference (?ref= of /waitlist/leave) its confirmation email carries; ' +
      'the reference works once. Rate limited per client IP together with joinWaitlist (RATE_LIMITED).',
    args: { reference: t.arg.string({ required: true }) },
    resolve: async (_root, { reference }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return leaveWaitlist({ db: ctx.db, logger: ctx.logger }, reference);
    },
  }),
);

const RequestLobbyLinkPayloadRef = builder.objectRef<RequestLobbyLinkResult & EmailSuggested>('RequestLobbyLinkPayload');
RequestLobbyLinkPayloadRef.implement({
  description:
    'sent is true for every well-formed address — new, on the list already or a member — so the answer reveals nothing about ' +
    'anyone; otherwise false with userErrors (field email).',
  fields: (t) => ({
    sent: t.exposeBoolean('sent'),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => userErrorsOf(r) }),
    emailSuggestion: t.string({ nullable: true, description: EMAIL_SUGGESTION_DESCRIPTION, resolve: (r) => r.emailSuggestion }),
  }),
});

builder.mutationField('requestLobbyLink', (t) =>
  t.field({
    type: RequestLobbyLinkPayloadRef,
    description:
      'Emails the lobby link (a short stored reference, valid 7 days) to the address, so only its owner can join the waiting list; ' +
      'at most 3 emails an hour per address (beyond, the same answer and no email). language: en, de, fr, it, nl, pl or sv ' +
      '(else en). Rate limited per client IP together with joinWaitlist and applyForMembership (RATE_LIMITED).',
    args: {
      email: t.arg.string({ required: true }),
      language: t.arg.string({ required: false }),
      proofOfWork: t.arg.string({
        required: false,
        description: 'The solved Query.proofOfWorkChallenge of form WAITING_LIST; missing, wrong or used before: sent is true and no email goes out.',
      }),
    },
    resolve: async (_root, { email, language, proofOfWork }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      const result = await requestLobbyLink(
        { db: ctx.db, secret: ctx.env.APP_SECRET, outboxSignal: ctx.outboxSignal, logger: ctx.logger, now: ctx.now, gate: ctx.signUpGate, mailDomains: ctx.mailDomains },
        { email, language, proofOfWork },
      );
      return withEmailSuggestion(result, email);
    },
  }),
);
