/**
 * The waiting list and applicants in the admin console (issue 13, ADR 047): reading is
 * acquisition.read (every role); inviting, releasing a batch and the daily capacity are
 * waitlist.manage (owner, operator). Expected refusals are userErrors (ADR 044).
 */
import type { ApiContext } from '../context.ts';
import { ok } from '../lib/result.ts';
import {
  inviteSelected,
  listApplicantsPage,
  listWaitlistPage,
  readAdmission,
  readRelease,
  recentReleases,
  setCapacity,
  startRelease,
  workReleaseChunk,
} from '../services/waitlist-admission.ts';
import type { Admission, ApplicantRow, Page, Release, SelectionResult, WaitlistRow } from '../services/waitlist-admission.ts';
import { actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef, answer } from './user-errors.ts';
import type { Answer } from './user-errors.ts';

const WaitlistStatusEnum = builder.enumType('WaitlistStatus', {
  values: { WAITING: { value: 'waiting' }, INVITED: { value: 'invited' }, ALL: { value: 'all' } } as const,
});
const ApplicantStatusEnum = builder.enumType('ApplicantStatus', {
  values: { OPEN: { value: 'open' }, SELECTED: { value: 'selected' }, ALL: { value: 'all' } } as const,
});

const WaitlistEntryRef = builder.objectRef<WaitlistRow>('WaitlistEntry');
WaitlistEntryRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    email: t.exposeString('email'),
    language: t.exposeString('language'),
    joinedAt: t.exposeString('joinedAt', { description: 'ISO 8601.' }),
    invitedAt: t.string({ nullable: true, resolve: (r) => r.invitedAt }),
    isMember: t.exposeBoolean('isMember', { description: 'An active member has this address (joined by another invitation): never invited from the list.' }),
  }),
});

const ApplicantRef = builder.objectRef<ApplicantRow>('Applicant');
ApplicantRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    email: t.exposeString('email'),
    language: t.exposeString('language'),
    country: t.string({ nullable: true, resolve: (r) => r.country }),
    appliedAt: t.exposeString('appliedAt', { description: 'ISO 8601.' }),
    selectedAt: t.string({ nullable: true, resolve: (r) => r.selectedAt }),
    isMember: t.exposeBoolean('isMember'),
  }),
});

const WaitlistPageRef = builder.objectRef<Page<WaitlistRow>>('WaitlistPage');
WaitlistPageRef.implement({
  fields: (t) => ({
    entries: t.field({ type: [WaitlistEntryRef], resolve: (p) => p.rows }),
    nextCursor: t.string({ nullable: true, description: 'Pass as `after` for the next page; null on the last.', resolve: (p) => p.nextCursor }),
  }),
});

const ApplicantPageRef = builder.objectRef<Page<ApplicantRow>>('ApplicantPage');
ApplicantPageRef.implement({
  fields: (t) => ({
    entries: t.field({ type: [ApplicantRef], resolve: (p) => p.rows }),
    nextCursor: t.string({ nullable: true, resolve: (p) => p.nextCursor }),
  }),
});

const ReleaseRef = builder.objectRef<Release>('WaitlistRelease');
ReleaseRef.implement({
  description: 'A batch released from the waiting list; invited grows chunk by chunk while status is RUNNING.',
  fields: (t) => ({
    id: t.exposeString('id'),
    kind: t.exposeString('kind', { description: 'batch (an operator) or capacity (the daily admission).' }),
    requested: t.exposeInt('requested'),
    invited: t.exposeInt('invited'),
    running: t.boolean({ resolve: (r) => r.status === 'running' }),
    actorEmail: t.string({ nullable: true, resolve: (r) => r.actorEmail }),
    createdAt: t.exposeString('createdAt'),
    finishedAt: t.string({ nullable: true, resolve: (r) => r.finishedAt }),
  }),
});

const AdmissionRef = builder.objectRef<Admission>('WaitlistAdmission');
AdmissionRef.implement({
  fields: (t) => ({
    dailyLimit: t.exposeInt('dailyLimit', { description: 'New members a day released by themselves; 0: off.' }),
    admittedToday: t.exposeInt('admittedToday', { description: 'Waiting-list invitations of the current day in timeZone (every kind).' }),
    timeZone: t.exposeString('timeZone', { description: 'The day of admittedToday and of the capacity: UTC.' }),
    updatedAt: t.exposeString('updatedAt'),
    releases: t.field({ type: [ReleaseRef], description: 'Running releases, then the five latest finished.', resolve: (_a, _args, ctx) => recentReleases(ctx.db) }),
  }),
});


const InvitePayloadRef = builder.objectRef<Answer<SelectionResult>>('WaitlistInvitePayload');
InvitePayloadRef.implement({
  description: 'invited: the addresses invited now; userErrors: the rows refused (field = their id), or the input refused.',
  fields: (t) => ({
    invited: t.stringList({ resolve: (r) => r.value?.invited ?? [] }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => [...r.userErrors, ...(r.value?.userErrors ?? [])] }),
  }),
});

const ReleasePayloadRef = builder.objectRef<Answer<Release>>('WaitlistReleasePayload');
ReleasePayloadRef.implement({
  fields: (t) => ({
    release: t.field({ type: ReleaseRef, nullable: true, resolve: (r) => r.value }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const CapacityPayloadRef = builder.objectRef<Answer<Admission>>('WaitlistCapacityPayload');
CapacityPayloadRef.implement({
  fields: (t) => ({
    admission: t.field({ type: AdmissionRef, nullable: true, resolve: (r) => r.value }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const pageSize = (first: number | null | undefined) => Math.min(Math.max(first ?? 50, 1), 100);
const listArgs = {
  search: { required: false, description: 'An address, or its beginning (sorted by address then).' },
  day: { required: false, description: 'YYYY-MM-DD (UTC): arrived that day.' },
} as const;

builder.queryField('waitlist', (t) =>
  t.field({
    type: WaitlistPageRef,
    description: 'The waiting list, first come first served, 100 a page at most (acquisition.read).',
    args: {
      status: t.arg({ type: WaitlistStatusEnum, required: false }),
      search: t.arg.string(listArgs.search),
      day: t.arg.string(listArgs.day),
      first: t.arg.int({ required: false }),
      after: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return listWaitlistPage(ctx.db, { status: args.status ?? 'all', search: args.search, day: args.day, first: pageSize(args.first), after: args.after });
    },
  }),
);

builder.queryField('applicants', (t) =>
  t.field({
    type: ApplicantPageRef,
    description: 'Membership applications, earliest first, 100 a page at most (acquisition.read).',
    args: {
      status: t.arg({ type: ApplicantStatusEnum, required: false }),
      search: t.arg.string(listArgs.search),
      day: t.arg.string(listArgs.day),
      first: t.arg.int({ required: false }),
      after: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return listApplicantsPage(ctx.db, { status: args.status ?? 'all', search: args.search, day: args.day, first: pageSize(args.first), after: args.after });
    },
  }),
);

builder.queryField('waitlistAdmission', (t) =>
  t.field({
    type: AdmissionRef,
    description: 'The daily capacity, what was admitted today, and the releases (acquisition.read).',
    resolve: async (_root, _args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return readAdmission(ctx.db, ctx.now);
    },
  }),
);

const deps = (ctx: ApiContext) => ({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now });

builder.mutationField('waitlistInvite', (t) =>
  t.field({
    type: InvitePayloadRef,
    description: 'Invites these waiting-list entries, 100 at most (waitlist.manage): a personal code and the email each.',
    args: { ids: t.arg.stringList({ required: true }) },
    resolve: async (_root, { ids }, ctx) => {
      const session = await requireAdmin(ctx, 'waitlist.manage');
      const outcome = await inviteSelected(deps(ctx), actorOf(ctx, session), 'waitlist', ids);
      if (outcome.ok && outcome.value.invited.length > 0) ctx.outboxSignal.notify();
      return answer(outcome);
    },
  }),
);

builder.mutationField('applicantsSelect', (t) =>
  t.field({
    type: InvitePayloadRef,
    description: 'Selects these applicants, 100 at most (waitlist.manage): a personal code and the email each.',
    args: { ids: t.arg.stringList({ required: true }) },
    resolve: async (_root, { ids }, ctx) => {
      const session = await requireAdmin(ctx, 'waitlist.manage');
      const outcome = await inviteSelected(deps(ctx), actorOf(ctx, session), 'applicants', ids);
      if (outcome.ok && outcome.value.invited.length > 0) ctx.outboxSignal.notify();
      return answer(outcome);
    },
  }),
);

builder.mutationField('waitlistRelease', (t) =>
  t.field({
    type: ReleasePayloadRef,
    description:
      'Invites the next `count` (1–10,000) of the waiting list, first come first served (waitlist.manage). The first chunk is ' +
      'written now, the rest by the API in the background (it survives a restart); follow it in waitlistAdmission.releases. ' +
      'INVALID_FIELD, NOBODY_WAITING.',
    args: { count: t.arg.int({ required: true }) },
    resolve: async (_root, { count }, ctx) => {
      const session = await requireAdmin(ctx, 'waitlist.manage');
      const outcome = await startRelease(deps(ctx), actorOf(ctx, session), count);
      if (!outcome.ok) return answer<Release>(outcome);
      await workReleaseChunk(deps(ctx), outcome.value.id, ctx.now);
      ctx.outboxSignal.notify();
      const release: Release = (await readRelease(ctx.db, outcome.value.id)) ?? outcome.value;
      return answer(ok(release));
    },
  }),
);

builder.mutationField('waitlistSetCapacity', (t) =>
  t.field({
    type: CapacityPayloadRef,
    description: 'New members a day (0–100,000; 0 switches it off) the waiting list is released for by itself (waitlist.manage).',
    args: { dailyLimit: t.arg.int({ required: true }) },
    resolve: async (_root, { dailyLimit }, ctx) => {
      const session = await requireAdmin(ctx, 'waitlist.manage');
      return answer(await setCapacity(deps(ctx), actorOf(ctx, session), dailyLimit));
    },
  }),
);
