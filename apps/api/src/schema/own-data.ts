/**
 * Pre-members' own data (issue 24 §2, ADR 066): the public form that emails a "manage my data"
 * link, the page behind the link (see, download, delete, withdraw newsletter consent), and the
 * console's privacy requests with their legal deadline.
 */
import type { ApiContext } from '../context.ts';
import { enforceRateLimit } from '../rate-limit.ts';
import { RETENTION_DAYS } from '../jobs/retention.ts';
import { eraseOwnData, exportOwnData, listPrivacyRequests, markPrivacyRequestDone, readOwnData, requestDataLink, withdrawOwnNewsletter } from '../services/own-data.ts';
import type { EraseOwnOutcome, OwnDataRead, PrivacyRequestRow, WithdrawNewsletterOutcome } from '../services/own-data.ts';
import { dataLinkFromStatus } from '../services/application-status.ts';
import { actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef, userErrorsOf } from './user-errors.ts';

const privacyDeps = (ctx: ApiContext) => ({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now, limiters: ctx.limiters });
/** References are 22 characters; anything longer is cut before it is looked up. */
const bounded = (reference: string) => reference.slice(0, 64);

const RequestDataLinkPayloadRef = builder.objectRef<{ sent: boolean; fieldErrors: { field: string; code: string }[] }>('RequestDataLinkPayload');
RequestDataLinkPayloadRef.implement({
  description: 'sent is true for every well-formed address, known or not (the same answer); false only with userErrors.',
  fields: (t) => ({
    sent: t.exposeBoolean('sent'),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => userErrorsOf(r) }),
  }),
});

builder.mutationField('requestDataLink', (t) =>
  t.field({
    type: RequestDataLinkPayloadRef,
    description:
      'Emails a "manage my data" link (valid 7 days) to the address, whether the club knows it or not; at most 3 an hour per address. ' +
      'message: a free-text request (at most 2,000 characters) that becomes a privacy request for an operator, due in a month. ' +
      'Rate limited per client IP with the public forms (RATE_LIMITED).',
    args: {
      email: t.arg.string({ required: true }),
      language: t.arg.string({ required: false }),
      proofOfWork: t.arg.string({ required: false, description: 'The solved Query.proofOfWorkChallenge of form WAITING_LIST.' }),
      message: t.arg.string({ required: false }),
    },
    resolve: async (_root, { email, language, proofOfWork, message }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return requestDataLink(
        {
          db: ctx.db,
          secret: ctx.env.APP_SECRET,
          now: ctx.now,
          outboxSignal: ctx.outboxSignal,
          logger: ctx.logger,
          gate: ctx.signUpGate,
          mailDomains: ctx.mailDomains,
          clientAddress: ctx.requestIp,
        },
        { email: email.slice(0, 320), language, proofOfWork, message: message?.slice(0, 4000) },
      );
    },
  }),
);

const OwnDataStateEnum = builder.enumType('OwnDataState', {
  values: {
    OK: { value: 'OK', description: 'The link is good: the fields say what is held.' },
    INVALID: { value: 'INVALID', description: 'No such link (or its data was deleted).' },
    EXPIRED: { value: 'EXPIRED', description: 'The link is past its 7 days: a new one comes through the form.' },
  } as const,
});

const OwnDataRef = builder.objectRef<OwnDataRead>('OwnData');
OwnDataRef.implement({
  fields: (t) => ({
    state: t.field({ type: OwnDataStateEnum, resolve: (r) => (r.ok ? 'OK' : r.reason === 'expired' ? 'EXPIRED' : 'INVALID') }),
    email: t.string({ nullable: true, resolve: (r) => (r.ok ? r.view.email : null) }),
    document: t.string({ nullable: true, description: 'The export (the admin export schema) as JSON text; null when nothing is held.', resolve: (r) => (r.ok && r.view.document ? JSON.stringify(r.view.document) : null) }),
    newsletter: t.boolean({ resolve: (r) => r.ok && r.view.newsletter }),
    activeMember: t.boolean({ description: 'An active member: deleting becomes a request for an operator.', resolve: (r) => r.ok && r.view.activeMember }),
    linkExpiresAt: t.string({ nullable: true, resolve: (r) => (r.ok ? r.view.linkExpiresAt : null) }),
    openRequestReceivedAt: t.string({ nullable: true, resolve: (r) => (r.ok ? (r.view.openRequest?.receivedAt ?? null) : null) }),
    openRequestDueAt: t.string({ nullable: true, resolve: (r) => (r.ok ? (r.view.openRequest?.dueAt ?? null) : null) }),
    sentEmailsKeptDays: t.int({ description: 'How many days the record of a sent email is kept (the retention job\'s, ADR 014).', resolve: () => RETENTION_DAYS.sentEmails }),
  }),
});

builder.queryField('ownData', (t) =>
  t.field({
    type: OwnDataRef,
    description: 'What the club holds about the address of a "manage my data" link (?ref= of /my-data). Writes nothing.',
    args: { reference: t.arg.string({ required: true }) },
    resolve: (_root, { reference }, ctx) => readOwnData(privacyDeps(ctx), bounded(reference)),
  }),
);

const OwnDataExportRef = builder.objectRef<{ fileName: string; document: string }>('OwnDataExport');
OwnDataExportRef.implement({ fields: (t) => ({ fileName: t.exposeString('fileName'), document: t.exposeString('document') }) });

builder.mutationField('ownDataExport', (t) =>
  t.field({
    type: OwnDataExportRef,
    nullable: true,
    description: "The JSON file of a data link's address (the admin export schema); audited under the pseudonym. Null for a bad link or nothing held.",
    args: { reference: t.arg.string({ required: true }) },
    resolve: async (_root, { reference }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return exportOwnData(privacyDeps(ctx), bounded(reference), ctx.requestIp);
    },
  }),
);

const EraseOwnOutcomeEnum = builder.enumType('EraseOwnOutcome', {
  values: {
    ERASED: { value: 'ERASED', description: 'Deleted, the consent proofs kept under the pseudonym; the link stops working.' },
    REQUESTED: { value: 'REQUESTED', description: 'An active member: a privacy request for an operator, due in a month.' },
    NOTHING_HELD: { value: 'NOTHING_HELD', description: 'Nothing was held about the address.' },
    NOT_FOUND: { value: 'NOT_FOUND', description: 'No such link, or expired.' },
  } as const,
});
const EraseOwnPayloadRef = builder.objectRef<{ outcome: EraseOwnOutcome }>('EraseOwnDataPayload');
EraseOwnPayloadRef.implement({ fields: (t) => ({ outcome: t.field({ type: EraseOwnOutcomeEnum, resolve: (r) => r.outcome }) }) });

builder.mutationField('eraseOwnData', (t) =>
  t.field({
    type: EraseOwnPayloadRef,
    description: "Deletes what is held about a data link's address (the admin erasure, the person as its actor). Rate limited with the public forms.",
    args: { reference: t.arg.string({ required: true }), language: t.arg.string({ required: false }) },
    resolve: async (_root, { reference, language }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return { outcome: await eraseOwnData(privacyDeps(ctx), bounded(reference), ctx.requestIp, language ?? null) };
    },
  }),
);

const WithdrawNewsletterOutcomeEnum = builder.enumType('WithdrawNewsletterOutcome', {
  values: {
    WITHDRAWN: { value: 'WITHDRAWN', description: 'Newsletter consent is withdrawn; nothing else changed.' },
    NOT_SUBSCRIBED: { value: 'NOT_SUBSCRIBED', description: 'There was no newsletter consent to withdraw.' },
    NOT_FOUND: { value: 'NOT_FOUND', description: 'No such link, or expired.' },
  } as const,
});
const WithdrawNewsletterPayloadRef = builder.objectRef<{ outcome: WithdrawNewsletterOutcome }>('WithdrawOwnNewsletterPayload');
WithdrawNewsletterPayloadRef.implement({ fields: (t) => ({ outcome: t.field({ type: WithdrawNewsletterOutcomeEnum, resolve: (r) => r.outcome }) }) });

builder.mutationField('withdrawOwnNewsletter', (t) =>
  t.field({
    type: WithdrawNewsletterPayloadRef,
    description: "Withdraws the newsletter consent of a data link's address; audited under the pseudonym. Rate limited with the public forms.",
    args: { reference: t.arg.string({ required: true }) },
    resolve: async (_root, { reference }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return { outcome: await withdrawOwnNewsletter(privacyDeps(ctx), bounded(reference), ctx.requestIp) };
    },
  }),
);

const DataLinkPayloadRef = builder.objectRef<{ reference: string | null }>('DataLinkFromStatusPayload');
DataLinkPayloadRef.implement({ fields: (t) => ({ reference: t.string({ nullable: true, description: 'The new data link, null for an unknown status link.', resolve: (r) => r.reference }) }) });

builder.mutationField('dataLinkFromStatus', (t) =>
  t.field({
    type: DataLinkPayloadRef,
    description: 'A "manage my data" link for the person of a status link (?ref= of /status): the status page\'s way to the data page. Rate limited with the public forms.',
    args: { reference: t.arg.string({ required: true }) },
    resolve: async (_root, { reference }, ctx) => {
      await enforceRateLimit(ctx.limiters.publicForms, ctx.requestNetwork);
      return { reference: await dataLinkFromStatus(ctx.db, bounded(reference), ctx.now) };
    },
  }),
);

const PrivacyRequestRef = builder.objectRef<PrivacyRequestRow>('PrivacyRequest');
PrivacyRequestRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    email: t.exposeString('email'),
    kind: t.exposeString('kind', { description: 'erase-member (an active account the door cannot delete) or other (free text).' }),
    message: t.string({ nullable: true, resolve: (r) => r.message }),
    language: t.exposeString('language'),
    receivedAt: t.exposeString('receivedAt'),
    dueAt: t.exposeString('dueAt', { description: 'One month after receivedAt (GDPR Art. 12(3)).' }),
    doneAt: t.string({ nullable: true, resolve: (r) => r.doneAt }),
  }),
});

builder.queryField('privacyRequests', (t) =>
  t.field({
    type: [PrivacyRequestRef],
    description: 'Privacy requests that need a person: the open ones by due date, then the last 50 done (privacy.manage).',
    resolve: async (_root, _args, ctx) => {
      await requireAdmin(ctx, 'privacy.manage');
      return listPrivacyRequests(ctx.db);
    },
  }),
);

builder.mutationField('markPrivacyRequestDone', (t) =>
  t.boolean({
    description: 'Marks a privacy request done (privacy.manage); audited. False when unknown or done already.',
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const session = await requireAdmin(ctx, 'privacy.manage');
      return markPrivacyRequestDone({ db: ctx.db, now: ctx.now }, actorOf(ctx, session), id.slice(0, 64));
    },
  }),
);
