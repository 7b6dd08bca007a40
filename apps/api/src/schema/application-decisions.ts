/**
 * Applicants hear back (issue 24 §1, ADR 063): declining with the owner's reasons, the cool-down,
 * an address's history in the console; and the public status link — where a person stands, and
 * withdrawing or leaving. Expected refusals are userErrors (ADR 044).
 */
import { DECLINE_REASON_LANGUAGES } from '@velvet/validation/waitlist';
import type { ApiContext } from '../context.ts';
import { enforceRateLimit } from '../rate-limit.ts';
import {
  applicantHistory,
  declineApplicants,
  listDeclineReasons,
  listDeclinesPage,
  readCooldownDays,
  saveDeclineReason,
  setCooldownDays,
} from '../services/application-decisions.ts';
import type { ApplicantHistoryEntry, DeclineReason, DeclineResult, DeclineRow } from '../services/application-decisions.ts';
import type { Page } from '../services/waitlist-admission.ts';
import { readStanding, withdrawByStatus } from '../services/application-status.ts';
import type { Standing, WithdrawOutcome } from '../services/application-status.ts';
import { actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef, answer } from './user-errors.ts';
import type { Answer } from './user-errors.ts';

const ReasonTextsRef = builder.objectRef<DeclineReason['texts']>('DeclineReasonTexts');
ReasonTextsRef.implement({
  description: 'One text per language of the site.',
  fields: (t) => Object.fromEntries(DECLINE_REASON_LANGUAGES.map((language) => [language, t.exposeString(language)])) as Record<string, never>,
});

const DeclineReasonRef = builder.objectRef<DeclineReason>('DeclineReason');
DeclineReasonRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    position: t.exposeInt('position'),
    texts: t.field({ type: ReasonTextsRef, resolve: (r) => r.texts }),
    updatedAt: t.exposeString('updatedAt'),
  }),
});

const HistoryKindEnum = builder.enumType('ApplicantHistoryKind', {
  values: { APPLIED: { value: 'applied' }, SELECTED: { value: 'selected' }, DECLINED: { value: 'declined' } } as const,
});

const HistoryEntryRef = builder.objectRef<ApplicantHistoryEntry>('ApplicantHistoryEntry');
HistoryEntryRef.implement({
  fields: (t) => ({
    kind: t.field({ type: HistoryKindEnum, resolve: (e) => e.kind }),
    at: t.exposeString('at', { description: 'ISO 8601.' }),
    reasonId: t.string({ nullable: true, resolve: (e) => e.reasonId }),
    reason: t.string({ nullable: true, description: 'DECLINED: the reason in English.', resolve: (e) => e.reason }),
    decidedBy: t.string({ nullable: true, description: 'DECLINED: the admin who decided.', resolve: (e) => e.decidedBy }),
    reapplyAfter: t.string({ nullable: true, description: 'DECLINED: the end of the cool-down.', resolve: (e) => e.reapplyAfter }),
  }),
});

const DeclineRef = builder.objectRef<DeclineRow>('ApplicationDecline');
DeclineRef.implement({
  description: 'A declined application as kept (ADR 063): no address — only its pseudonym is stored, and that is not shown.',
  fields: (t) => ({
    id: t.exposeString('id'),
    declinedAt: t.exposeString('declinedAt', { description: 'ISO 8601.' }),
    appliedAt: t.exposeString('appliedAt'),
    language: t.exposeString('language'),
    country: t.string({ nullable: true, resolve: (d) => d.country }),
    reasonId: t.exposeString('reasonId'),
    reason: t.string({ nullable: true, description: 'The reason in English.', resolve: (d) => d.reason }),
    decidedBy: t.string({ nullable: true, description: 'The admin who decided.', resolve: (d) => d.decidedBy }),
    reapplyAfter: t.exposeString('reapplyAfter', { description: 'The end of the cool-down.' }),
  }),
});

const DeclinePageRef = builder.objectRef<Page<DeclineRow>>('ApplicationDeclinePage');
DeclinePageRef.implement({
  fields: (t) => ({
    entries: t.field({ type: [DeclineRef], resolve: (p) => p.rows }),
    nextCursor: t.string({ nullable: true, description: 'Pass as `after` for the next page; null on the last.', resolve: (p) => p.nextCursor }),
  }),
});

const DeclinePayloadRef = builder.objectRef<Answer<DeclineResult>>('ApplicantsDeclinePayload');
DeclinePayloadRef.implement({
  description: 'declined: the addresses declined now; userErrors: the rows refused (field = their id), or the input refused.',
  fields: (t) => ({
    declined: t.stringList({ resolve: (r) => r.value?.declined ?? [] }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => [...r.userErrors, ...(r.value?.userErrors ?? [])] }),
  }),
});

const ReasonPayloadRef = builder.objectRef<Answer<DeclineReason>>('DeclineReasonPayload');
ReasonPayloadRef.implement({
  fields: (t) => ({
    reason: t.field({ type: DeclineReasonRef, nullable: true, resolve: (r) => r.value }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const CooldownPayloadRef = builder.objectRef<Answer<number>>('ApplicationCooldownPayload');
CooldownPayloadRef.implement({
  fields: (t) => ({
    cooldownDays: t.int({ nullable: true, resolve: (r) => r.value }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const deps = (ctx: ApiContext) => ({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now });

builder.queryField('declineReasons', (t) =>
  t.field({
    type: [DeclineReasonRef],
    description: 'The reasons an applicant can be declined with, in order (acquisition.read).',
    resolve: async (_root, _args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return listDeclineReasons(ctx.db);
    },
  }),
);

builder.queryField('applicationCooldownDays', (t) =>
  t.int({
    description: 'Days a declined address waits before it may apply again (acquisition.read).',
    resolve: async (_root, _args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return readCooldownDays(ctx.db);
    },
  }),
);

builder.queryField('applicantHistory', (t) =>
  t.field({
    type: [HistoryEntryRef],
    description: 'Applications and decisions for this exact address, newest first; declines are found by its pseudonym (acquisition.read).',
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_root, { email }, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return applicantHistory(ctx.db, email.slice(0, 254), ctx.env.APP_SECRET);
    },
  }),
);

builder.queryField('applicationDeclines', (t) =>
  t.field({
    type: DeclinePageRef,
    description: 'Every decline kept, newest first, 100 a page at most; by reason, by day declined (YYYY-MM-DD, UTC) (acquisition.read).',
    args: {
      reasonId: t.arg.string({ required: false }),
      day: t.arg.string({ required: false }),
      first: t.arg.int({ required: false }),
      after: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      const first = Math.min(Math.max(args.first ?? 50, 1), 100);
      return listDeclinesPage(ctx.db, { reasonId: args.reasonId?.slice(0, 100), day: args.day, first, after: args.after });
    },
  }),
);

builder.mutationField('applicantsDecline', (t) =>
  t.field({
    type: DeclinePayloadRef,
    description:
      'Declines these applicants, 100 at most, with a reason (waitlist.manage): each is kept without the address, sent the decline ' +
      'email in their language and audited, in one transaction. INVALID_FIELD, REASON_NOT_FOUND; per row ENTRY_NOT_FOUND, ALREADY_INVITED.',
    args: { ids: t.arg.stringList({ required: true }), reasonId: t.arg.string({ required: true }) },
    resolve: async (_root, { ids, reasonId }, ctx) => {
      const session = await requireAdmin(ctx, 'waitlist.manage');
      const outcome = await declineApplicants(deps(ctx), actorOf(ctx, session), { ids, reasonId });
      if (outcome.ok && outcome.value.declined.length > 0) ctx.outboxSignal.notify();
      return answer(outcome);
    },
  }),
);

const ReasonInput = builder.inputType('DeclineReasonInput', {
  fields: (t) => ({
    id: t.string({ required: false, description: 'Absent: a new reason.' }),
    ...(Object.fromEntries(DECLINE_REASON_LANGUAGES.map((language) => [language, t.string({ required: true })])) as Record<
      (typeof DECLINE_REASON_LANGUAGES)[number],
      ReturnType<typeof t.string>
    >),
  }),
});

builder.mutationField('declineReasonSave', (t) =>
  t.field({
    type: ReasonPayloadRef,
    description: 'Writes a decline reason in the seven languages, or adds one (decisions.configure: the owner). INVALID_FIELD, REASON_NOT_FOUND.',
    args: { input: t.arg({ type: ReasonInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const session = await requireAdmin(ctx, 'decisions.configure');
      return answer(await saveDeclineReason(deps(ctx), actorOf(ctx, session), { ...input }));
    },
  }),
);

builder.mutationField('applicationCooldownSet', (t) =>
  t.field({
    type: CooldownPayloadRef,
    description: 'Days (1–730) a declined address waits before it may apply again (decisions.configure: the owner). INVALID_FIELD.',
    args: { days: t.arg.int({ required: true }) },
    resolve: async (_root, { days }, ctx) => {
      const session = await requireAdmin(ctx, 'decisions.configure');
      return answer(await setCooldownDays(deps(ctx), actorOf(ctx, session), days));
    },
  }),
);

// ---------------------------------------------------------------------------------------------
// The status link (public)

const StandingStateEnum = builder.enumType('StandingState', {
  values: {
    RECEIVED: { value: 'RECEIVED', description: 'An application, not decided yet.' },
    WAITING: { value: 'WAITING', description: 'On the waiting list, not invited yet.' },
    INVITED: { value: 'INVITED', description: 'Selected or invited: the invitation email was sent.' },
    DECLINED: { value: 'DECLINED', description: 'The application was declined.' },
  } as const,
});

const StandingRef = builder.objectRef<Standing>('ApplicationStanding');
StandingRef.implement({
  description: 'Where the person of a status link stands (issue 24 §1, ADR 063).',
  fields: (t) => ({
    state: t.field({ type: StandingStateEnum, resolve: (s) => s.state }),
    onWaitlist: t.exposeBoolean('onWaitlist', { description: 'A waiting-list entry; else an application.' }),
    language: t.exposeString('language'),
    since: t.exposeString('since', { description: 'ISO 8601: applied or joined.' }),
    decidedAt: t.string({ nullable: true, resolve: (s) => s.decidedAt }),
    expectedWaitDays: t.int({
      nullable: true,
      description: 'RECEIVED, WAITING: the people ahead over the last 30 days\' pace, in days; null when the 30 days had fewer than 3 decisions.',
      resolve: (s) => s.expectedWaitDays,
    }),
    reason: t.string({ nullable: true, description: 'DECLINED: the reason in the person\'s language.', resolve: (s) => s.reason }),
    reapplyAfter: t.string({ nullable: true, resolve: (s) => s.reapplyAfter }),
    canWithdraw: t.exposeBoolean('canWithdraw', { description: 'RECEIVED: the application can be withdrawn; WAITING: the entry can leave the list.' }),
  }),
});

builder.queryField('applicationStatus', (t) =>
  t.field({
    type: StandingRef,
    nullable: true,
    description: 'Where the person of a status link (?ref= of /status) stands; null for an unknown reference. Writes nothing.',
    args: { reference: t.arg.string({ required: true }) },
    resolve: (_root, { reference }, ctx) => readStanding(ctx.db, reference.slice(0, 64), ctx.now),
  }),
);

const WithdrawOutcomeEnum = builder.enumType('WithdrawOutcome', {
  values: {
    WITHDRAWN: { value: 'WITHDRAWN', description: 'The open application is withdrawn (deleted).' },
    LEFT: { value: 'LEFT', description: 'The entry is off the waiting list.' },
    NOT_FOUND: { value: 'NOT_FOUND', description: 'No such reference (unknown, malformed, or its row is gone).' },
    NOTHING_TO_WITHDRAW: { value: 'NOTHING_TO_WITHDRAW', description: 'Invited or declined already: nothing to withdraw.' },
  } as const,
});

const WithdrawPayloadRef = builder.objectRef<{ outcome: WithdrawOutcome }>('WithdrawByStatusPayload');
WithdrawPayloadRef.implement({ fields: (t) => ({ outcome: t.field({ type: WithdrawOutcomeEnum, resolve: (r) => r.outcome }) }) });

builder.mutationField('withdrawByStatus', (t) =>
  t.field({
    type: WithdrawPayloadRef,
    description: 'Withdraws the open application, or takes the entry off the waiting list, of a status link. Rate limited per client IP with the public forms (RATE_LIMITED).',
    args: { reference: t.arg.string({ required: true }) },
    resolve: async (_root, { reference }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return { outcome: await withdrawByStatus({ db: ctx.db, logger: ctx.logger }, reference.slice(0, 64)) };
    },
  }),
);
