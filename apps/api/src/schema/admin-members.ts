/**
 * Customer service's member look-up and the data-protection tools (issue 13, ADR 048). Every
 * field checks its permission on the server: members.support (owner, support, privacy) for the
 * look-up, the resend and freeing a place; privacy.manage (owner, privacy) for export and delete.
 */
import type { UserError } from '@velvet/validation/user-errors';
import type { ApiContext } from '../context.ts';
import type { Result } from '../lib/result.ts';
import { lookUpMember } from '../services/look-up-member.ts';
import type { ActivationLinkRecord, ConsentProof, EmailRecord, MemberRecord, RegistrationRecord } from '../services/look-up-member.ts';
import { KEPT_AFTER_DELETION, erasePersonalData, exportPersonalData } from '../services/personal-data.ts';
import type { ErasureReceipt } from '../services/personal-data.ts';
import { freePlaceBySupport, resendActivationBySupport } from '../services/support-member.ts';
import { actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef, answer } from './user-errors.ts';
import type { Answer } from './user-errors.ts';

const deps = (ctx: ApiContext) => ({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now, outboxSignal: ctx.outboxSignal, limiters: ctx.limiters });
/** No address is longer (RFC 5321); a longer input is refused by the schema after this cut. */
const bounded = (email: string) => email.slice(0, 320);

const ActivationLinkRef = builder.objectRef<ActivationLinkRecord>('MemberActivationLink');
ActivationLinkRef.implement({
  description: 'One emailed activation link (the link itself is never stored, only its hash).',
  fields: (t) => ({
    reason: t.exposeString('reason', { description: 'registration or resend.' }),
    createdAt: t.exposeString('createdAt'),
    expiresAt: t.exposeString('expiresAt'),
    usedAt: t.string({ nullable: true, resolve: (l) => l.usedAt }),
    supersededAt: t.string({ nullable: true, resolve: (l) => l.supersededAt }),
    state: t.exposeString('state', { description: 'current, used, superseded (voided by a newer link) or expired.' }),
  }),
});

const ConsentProofRef = builder.objectRef<ConsentProof>('MemberConsent');
ConsentProofRef.implement({
  description: 'What the person agreed to when registering.',
  fields: (t) => ({
    acceptedAt: t.exposeString('acceptedAt'),
    country: t.exposeString('country'),
    termsVersion: t.exposeString('termsVersion'),
    dataPolicyVersion: t.exposeString('dataPolicyVersion'),
    newsletter: t.exposeBoolean('newsletter'),
  }),
});

const RegistrationRef = builder.objectRef<RegistrationRecord>('MemberRegistration');
RegistrationRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    status: t.exposeString('status', { description: 'pending, active or blocked.' }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    country: t.string({ nullable: true, resolve: (r) => r.country }),
    language: t.string({ nullable: true, resolve: (r) => r.language }),
    newsletter: t.exposeBoolean('newsletter'),
    createdAt: t.exposeString('createdAt'),
    activatedAt: t.string({ nullable: true, resolve: (r) => r.activatedAt }),
    code: t.string({ nullable: true, description: 'The invitation code registered with.', resolve: (r) => r.code }),
    holdsPlace: t.exposeBoolean('holdsPlace', { description: 'A pending registration holding a place on its code now.' }),
    placeHeldUntil: t.string({ nullable: true, resolve: (r) => r.placeHeldUntil }),
    activationLinks: t.field({ type: [ActivationLinkRef], description: 'Newest first.', resolve: (r) => r.activations }),
    consents: t.field({ type: [ConsentProofRef], resolve: (r) => r.consents }),
  }),
});

const HeldRegistrationRef = builder.objectRef<MemberRecord['heldRegistrations'][number]>('MemberHeldRegistration');
HeldRegistrationRef.implement({
  description: 'A registration held for review on a quarantined code.',
  fields: (t) => ({ code: t.exposeString('code'), createdAt: t.exposeString('createdAt'), language: t.exposeString('language') }),
});

const WaitlistRef = builder.objectRef<NonNullable<MemberRecord['waitlist']>>('MemberWaitlistEntry');
WaitlistRef.implement({
  fields: (t) => ({
    joinedAt: t.exposeString('joinedAt'),
    consentAt: t.exposeString('consentAt'),
    invitedAt: t.string({ nullable: true, resolve: (w) => w.invitedAt }),
  }),
});

const ApplicationRef = builder.objectRef<NonNullable<MemberRecord['application']>>('MemberApplication');
ApplicationRef.implement({
  fields: (t) => ({
    createdAt: t.exposeString('createdAt'),
    consentAt: t.exposeString('consentAt'),
    selectedAt: t.string({ nullable: true, resolve: (a) => a.selectedAt }),
  }),
});

const EmailRef = builder.objectRef<EmailRecord>('MemberEmail');
EmailRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    template: t.exposeString('template', { description: 'activation, invitation, lobby, private-link, …' }),
    locale: t.exposeString('locale'),
    status: t.exposeString('status', { description: 'pending, sending, sent or failed.' }),
    attempts: t.exposeInt('attempts'),
    createdAt: t.exposeString('createdAt'),
    sentAt: t.string({ nullable: true, resolve: (e) => e.sentAt }),
  }),
});

const MemberRecordRef = builder.objectRef<MemberRecord>('MemberRecord');
MemberRecordRef.implement({
  fields: (t) => ({
    email: t.exposeString('email', { description: 'The address as stored (trimmed, lower case).' }),
    reference: t.exposeString('reference', { description: 'The pseudonym the audit log names this address by (subject:…).' }),
    registration: t.field({ type: RegistrationRef, nullable: true, resolve: (r) => r.registration }),
    heldRegistrations: t.field({ type: [HeldRegistrationRef], resolve: (r) => r.heldRegistrations }),
    waitlist: t.field({ type: WaitlistRef, nullable: true, resolve: (r) => r.waitlist }),
    application: t.field({ type: ApplicationRef, nullable: true, resolve: (r) => r.application }),
    emails: t.field({ type: [EmailRef], description: 'Sent and queued, newest first, 100 at most.', resolve: (r) => r.emails }),
  }),
});

type Lookup = { record: MemberRecord | null; userErrors: UserError[] };
const LookupRef = builder.objectRef<Lookup>('MemberLookupPayload');
LookupRef.implement({
  description: 'record is null with no userErrors when nothing is held about the address.',
  fields: (t) => ({
    record: t.field({ type: MemberRecordRef, nullable: true, resolve: (r) => r.record }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const SupportPayloadRef = builder.objectRef<Result<true>>('MemberSupportPayload');
SupportPayloadRef.implement({
  fields: (t) => ({
    done: t.boolean({ resolve: (r) => r.ok }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => (r.ok ? [] : r.errors) }),
  }),
});

const ExportRef = builder.objectRef<Answer<{ fileName: string; document: string }>>('PersonalDataExportPayload');
ExportRef.implement({
  fields: (t) => ({
    fileName: t.string({ nullable: true, resolve: (r) => r.value?.fileName ?? null }),
    document: t.string({
      nullable: true,
      description: 'JSON: { schema: "velvet-rope/personal-data-export", version, exportedAt, email, registration, heldRegistrations, waitingList, application, consentRecords, ownInvitationCodes, emails, notHeldByAddress, keptAfterDeletion }.',
      resolve: (r) => r.value?.document ?? null,
    }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const ReceiptRef = builder.objectRef<ErasureReceipt>('PersonalDataErasure');
ReceiptRef.implement({
  fields: (t) => ({
    erasureId: t.exposeString('erasureId'),
    reference: t.exposeString('reference'),
    erasedAt: t.exposeString('erasedAt'),
    removed: t.string({ description: 'JSON: rows removed, by kind.', resolve: (r) => JSON.stringify(r.removed) }),
    keptConsentProofs: t.exposeInt('keptConsentProofs'),
    anonymisedInviter: t.exposeBoolean('anonymisedInviter'),
    kept: t.string({ description: 'What is kept, and why.', resolve: () => KEPT_AFTER_DELETION }),
  }),
});

const EraseRef = builder.objectRef<Answer<ErasureReceipt>>('PersonalDataErasePayload');
EraseRef.implement({
  fields: (t) => ({
    erasure: t.field({ type: ReceiptRef, nullable: true, resolve: (r) => r.value }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

builder.queryField('memberLookup', (t) =>
  t.field({
    type: LookupRef,
    description: 'Everything held about one address, exact match after normalization (permission members.support). INVALID_FIELD for a malformed address.',
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_root, { email }, ctx) => {
      await requireAdmin(ctx, 'members.support');
      const outcome = await lookUpMember(deps(ctx), bounded(email));
      return outcome.ok ? { record: outcome.value.record, userErrors: [] } : { record: null, userErrors: outcome.errors };
    },
  }),
);

builder.mutationField('memberResendActivation', (t) =>
  t.field({
    type: SupportPayloadRef,
    description:
      'A new activation link by email, the older ones voided (members.support). At most 3 resends an hour per person, the ' +
      "visitor's own included: RESEND_LIMIT_REACHED. MEMBER_NOT_FOUND, MEMBER_NOT_PENDING.",
    args: { memberId: t.arg.string({ required: true }) },
    resolve: async (_root, { memberId }, ctx) => {
      const session = await requireAdmin(ctx, 'members.support');
      return resendActivationBySupport(deps(ctx), actorOf(ctx, session), { memberId });
    },
  }),
);

builder.mutationField('memberFreePlace', (t) =>
  t.field({
    type: SupportPayloadRef,
    description:
      "Gives a pending registration's place back to its code now; its current link ends (members.support). MEMBER_NOT_FOUND, " +
      'MEMBER_NOT_PENDING, PLACE_NOT_HELD.',
    args: { memberId: t.arg.string({ required: true }) },
    resolve: async (_root, { memberId }, ctx) => {
      const session = await requireAdmin(ctx, 'members.support');
      return freePlaceBySupport(deps(ctx), actorOf(ctx, session), { memberId });
    },
  }),
);

builder.mutationField('personalDataExport', (t) =>
  t.field({
    type: ExportRef,
    description: 'Everything held about an address as a JSON document (privacy.manage); audited. NOTHING_FOUND, INVALID_FIELD.',
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_root, { email }, ctx) => {
      const session = await requireAdmin(ctx, 'privacy.manage');
      return answer(await exportPersonalData(deps(ctx), actorOf(ctx, session), { email: bounded(email) }));
    },
  }),
);

builder.mutationField('personalDataErase', (t) =>
  t.field({
    type: EraseRef,
    description: 'Deletes everything held about an address but the consent proofs and the record of the request (privacy.manage); audited. NOTHING_FOUND, INVALID_FIELD.',
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_root, { email }, ctx) => {
      const session = await requireAdmin(ctx, 'privacy.manage');
      return answer(await erasePersonalData(deps(ctx), actorOf(ctx, session), { email: bounded(email) }));
    },
  }),
);
