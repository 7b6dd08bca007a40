/**
 * The console's invitations (issue 13, ADR 046). Reading needs acquisition.read (every role);
 * every change needs codes.manage (owner, operator) and is audited in its own transaction.
 * Expected refusals are userErrors (ADR 044): INVALID_FIELD with admin.codes.error.*, an unknown
 * code as REGISTRATION_CODE_INVALID, a revoked one as REGISTRATION_CODE_REVOKED.
 */
import { CODE_BALANCE_MAX, CODE_STATES, CODES_PER_BATCH_MAX } from '@velvet/validation/codes';
import type { CodeState } from '@velvet/validation/codes';
import { listCodes, readCode } from '../services/code-console-reads.ts';
import type { CodeDay, CodeDetail, CodeRow } from '../services/code-console-reads.ts';
import { changeCode, createCodes, releaseCodeFromConsole, revokeCode, rotateCodeFromConsole } from '../services/manage-codes.ts';
import { actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef, answer } from './user-errors.ts';
import type { Answer } from './user-errors.ts';

const CodeStateEnum = builder.enumType('AdminCodeState', {
  description: 'revoked (withdrawn or replaced: refused to visitors), quarantined (leak suspected: registrations held), expired, ' +
    'exhausted (every place taken or held), valid. In this order of precedence.',
  values: Object.fromEntries(CODE_STATES.map((state) => [state.toUpperCase(), { value: state }])) as Record<Uppercase<CodeState>, { value: CodeState }>,
});

const AdminCodeRef = builder.objectRef<CodeRow>('AdminCode');
AdminCodeRef.implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    inviterName: t.exposeString('inviterName', { description: "The inviting member's first name." }),
    inviterActive: t.boolean({ resolve: (c) => c.inviterStatus === 'active' }),
    balance: t.exposeInt('balance', { description: 'Invitations the code grants.' }),
    pending: t.exposeInt('pending', { description: 'Registrations awaiting activation (each may hold a place).' }),
    expiresAt: t.string({ nullable: true, description: 'ISO 8601; null: never.', resolve: (c) => c.expiresAt }),
    customization: t.string({ nullable: true, resolve: (c) => c.customization }),
    landingSlug: t.string({ nullable: true, resolve: (c) => c.landingSlug }),
    requiresValidityTimestamp: t.exposeBoolean('requiresValidityTimestamp', { description: 'Usable only through a generated link.' }),
    createdAt: t.exposeString('createdAt'),
    revokedAt: t.string({ nullable: true, resolve: (c) => c.revokedAt }),
    replaced: t.boolean({ description: 'Revoked because it was rotated (replaced by a new code).', resolve: (c) => c.revokedReason === 'rotated' }),
    state: t.field({ type: CodeStateEnum, resolve: (c) => c.state }),
  }),
});

const AdminCodePageRef = builder.objectRef<{ codes: CodeRow[]; nextCursor: string | null }>('AdminCodePage');
AdminCodePageRef.implement({
  fields: (t) => ({
    codes: t.field({ type: [AdminCodeRef], resolve: (p) => p.codes }),
    nextCursor: t.string({ nullable: true, description: 'Pass as `after` for the next (older) page; null on the last page.', resolve: (p) => p.nextCursor }),
  }),
});

const CodeDayRef = builder.objectRef<CodeDay>('AdminCodeDay');
CodeDayRef.implement({
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD, UTC.' }),
    visits: t.exposeInt('visits'),
    registrations: t.exposeInt('registrations'),
    activations: t.exposeInt('activations'),
  }),
});

const FunnelStepRef = builder.objectRef<{ event: string; sessions: number }>('AdminCodeFunnelStep');
FunnelStepRef.implement({
  fields: (t) => ({ event: t.exposeString('event'), sessions: t.exposeInt('sessions', { description: 'Page-load sessions that reached the step.' }) }),
});

const AdminCodeDetailRef = builder.objectRef<CodeDetail>('AdminCodeDetail');
AdminCodeDetailRef.implement({
  fields: (t) => ({
    code: t.field({ type: AdminCodeRef, resolve: (d) => d }),
    visits: t.exposeInt('visits', { description: 'Loads of the landing page through the code.' }),
    registrations: t.exposeInt('registrations'),
    activations: t.exposeInt('activations'),
    funnel: t.field({ type: [FunnelStepRef], resolve: (d) => d.funnel }),
    days: t.field({ type: [CodeDayRef], description: 'The last 30 days, oldest first.', resolve: (d) => d.days }),
  }),
});

const CodeFilterInput = builder.inputType('AdminCodeFilter', {
  fields: (t) => ({
    code: t.string({ required: false, description: 'The code, exact (case-insensitive).' }),
    inviter: t.string({ required: false, description: "The inviter's first name, exact (case-insensitive)." }),
    customization: t.string({ required: false }),
    slug: t.string({ required: false }),
    state: t.field({ type: CodeStateEnum, required: false }),
  }),
});


const CreateCodesPayloadRef = builder.objectRef<Answer<{ code: string }[]>>('AdminCreateCodesPayload');
CreateCodesPayloadRef.implement({
  fields: (t) => ({
    codes: t.stringList({ description: 'The new codes; empty when userErrors say why not.', resolve: (r) => (r.value ?? []).map((c) => c.code) }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const CodeChangePayloadRef = builder.objectRef<Answer<{ code: string; newCode?: string }>>('AdminCodeChangePayload');
CodeChangePayloadRef.implement({
  description: 'code: the code changed (null when userErrors say why not); newCode: the replacement of a rotation.',
  fields: (t) => ({
    code: t.string({ nullable: true, resolve: (r) => r.value?.code ?? null }),
    newCode: t.string({ nullable: true, resolve: (r) => r.value?.newCode ?? null }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const ReleasePayloadRef = builder.objectRef<Answer<{ code: string; registered: number; dropped: number }>>('AdminReleaseCodePayload');
ReleasePayloadRef.implement({
  description: 'code: the code released (null when userErrors say why not); registered: held registrations now registered; dropped: those the code had no place for.',
  fields: (t) => ({
    code: t.string({ nullable: true, resolve: (r) => r.value?.code ?? null }),
    registered: t.int({ resolve: (r) => r.value?.registered ?? 0 }),
    dropped: t.int({ resolve: (r) => r.value?.dropped ?? 0 }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const CreateCodesInput = builder.inputType('AdminCreateCodesInput', {
  fields: (t) => ({
    inviterName: t.string({ required: true, description: "A new inviting member's first name (as `code create --inviter`)." }),
    count: t.int({ required: false, description: `How many codes, 1–${CODES_PER_BATCH_MAX}; default 1.` }),
    balance: t.float({ required: true, description: `Invitations per code: a whole number 0–${CODE_BALANCE_MAX} (any number is accepted and checked, so a wrong one is a userError).` }),
    expiresAt: t.string({ required: false, description: 'YYYY-MM-DD (end of that day, UTC) or ISO 8601, in the future.' }),
    customization: t.string({ required: false }),
    landingSlug: t.string({ required: false }),
    requiresValidityTimestamp: t.boolean({ required: false }),
    code: t.string({ required: false, description: 'A chosen code (count 1): 4–64 letters, digits or hyphens; random 8 characters when absent.' }),
  }),
});

builder.queryField('adminCodes', (t) =>
  t.field({
    type: AdminCodePageRef,
    description: 'Registration codes, newest first, 50 a page at most (permission acquisition.read: every role).',
    args: { filter: t.arg({ type: CodeFilterInput, required: false }), first: t.arg.int({ required: false }), after: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      const first = Math.min(Math.max(args.first ?? 50, 1), 50);
      return listCodes(ctx.db, args.filter ?? {}, { first, after: args.after }, ctx.now);
    },
  }),
);

builder.queryField('adminCode', (t) =>
  t.field({
    type: AdminCodeDetailRef,
    nullable: true,
    description: 'One code with its visits, registrations, activations, funnel and last 30 days; null when unknown (acquisition.read).',
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, { code }, ctx) => {
      await requireAdmin(ctx, 'acquisition.read');
      return readCode(ctx.db, code.slice(0, 64), ctx.now);
    },
  }),
);

builder.mutationField('adminCreateCodes', (t) =>
  t.field({
    type: CreateCodesPayloadRef,
    description: 'New codes for one new inviting member (permission codes.manage: owner, operator).',
    args: { input: t.arg({ type: CreateCodesInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const session = await requireAdmin(ctx, 'codes.manage');
      return answer(await createCodes(ctx.db, actorOf(ctx, session), input, ctx.now));
    },
  }),
);

builder.mutationField('adminChangeCode', (t) =>
  t.field({
    type: CodeChangePayloadRef,
    description: 'A new balance and/or expiry (clearExpiry: never expires) (codes.manage).',
    args: {
      code: t.arg.string({ required: true }),
      balance: t.arg.float({ required: false }),
      expiresAt: t.arg.string({ required: false }),
      clearExpiry: t.arg.boolean({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const session = await requireAdmin(ctx, 'codes.manage');
      return answer(await changeCode(ctx.db, actorOf(ctx, session), args.code.slice(0, 64), args, ctx.now));
    },
  }),
);

builder.mutationField('adminRevokeCode', (t) =>
  t.field({
    type: CodeChangePayloadRef,
    description: 'Withdraw a code: visitors are refused with REGISTRATION_CODE_REVOKED from now on (codes.manage).',
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, { code }, ctx) => {
      const session = await requireAdmin(ctx, 'codes.manage');
      return answer(await revokeCode(ctx.db, actorOf(ctx, session), code.slice(0, 64), ctx.now));
    },
  }),
);

builder.mutationField('adminRotateCode', (t) =>
  t.field({
    type: CodeChangePayloadRef,
    description: "Replace a code (as `code rotate`): a new code with the old one's free places, the inviter emailed its link; " +
      'the old code is refused with REGISTRATION_CODE_REPLACED (codes.manage).',
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, { code }, ctx) => {
      const session = await requireAdmin(ctx, 'codes.manage');
      return answer(await rotateCodeFromConsole(ctx.db, actorOf(ctx, session), code.slice(0, 64), ctx.now));
    },
  }),
);

builder.mutationField('adminReleaseCode', (t) =>
  t.field({
    type: ReleasePayloadRef,
    description:
      'End a quarantine (as `code release`, ADR 043): the registrations held on the code register while it has places; ' +
      'a code not quarantined is refused with admin.codes.error.notQuarantined (codes.manage).',
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, { code }, ctx) => {
      const session = await requireAdmin(ctx, 'codes.manage');
      const deps = { db: ctx.db, secret: ctx.env.APP_SECRET, referrerBlocklist: ctx.settings.referrerBlocklist, outboxSignal: ctx.outboxSignal, logger: ctx.logger };
      return answer(await releaseCodeFromConsole(deps, actorOf(ctx, session), code.slice(0, 64), ctx.now));
    },
  }),
);
