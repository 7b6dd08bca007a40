import { enforceRateLimit } from '../rate-limit.ts';
import { applyForMembership } from '../services/apply-for-membership.ts';
import type { ApplyForMembershipResult } from '../services/apply-for-membership.ts';
import { builder } from './builder.ts';
import { EMAIL_SUGGESTION_DESCRIPTION, withEmailSuggestion, type EmailSuggested } from './email-suggestion.ts';
import { UserErrorRef, userErrorsOf } from './user-errors.ts';

const ApplyForMembershipPayloadRef = builder.objectRef<ApplyForMembershipResult & EmailSuggested>('ApplyForMembershipPayload');
ApplyForMembershipPayloadRef.implement({
  description:
    'accepted is true for every well-formed address — new, repeated or already a member — so the answer reveals nothing ' +
    'about anyone; otherwise false with userErrors (field email), or false with reapplyAfter: the address was declined and ' +
    'its cool-down lasts until then (issue 24 §1, ADR 063; nothing was written).',
  fields: (t) => ({
    accepted: t.exposeBoolean('accepted'),
    reapplyAfter: t.string({ nullable: true, description: 'ISO 8601: declined, may apply again from then.', resolve: (r) => r.reapplyAfter ?? null }),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => userErrorsOf(r) }),
    emailSuggestion: t.string({ nullable: true, description: EMAIL_SUGGESTION_DESCRIPTION, resolve: (r) => r.emailSuggestion }),
  }),
});

builder.mutationField('applyForMembership', (t) =>
  t.field({
    type: ApplyForMembershipPayloadRef,
    description:
      'Applies for membership with an email address (spec §2 membership interest). language: en, de, fr, it, nl, pl or sv ' +
      '(else en); country: ISO code, kept only when served. Rate limited per client IP together with joinWaitlist (RATE_LIMITED).',
    args: {
      email: t.arg.string({ required: true }),
      language: t.arg.string({ required: false }),
      country: t.arg.string({ required: false }),
      proofOfWork: t.arg.string({
        required: false,
        description: 'The solved Query.proofOfWorkChallenge of form MEMBERSHIP_INTEREST; missing, wrong or used before: accepted and nothing written.',
      }),
    },
    resolve: async (_root, { email, language, country, proofOfWork }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      const result = await applyForMembership(
        { db: ctx.db, secret: ctx.env.APP_SECRET, logger: ctx.logger, now: ctx.now, gate: ctx.signUpGate, mailDomains: ctx.mailDomains, outboxSignal: ctx.outboxSignal },
        { email, language, country, proofOfWork },
      );
      return withEmailSuggestion(result, email);
    },
  }),
);
