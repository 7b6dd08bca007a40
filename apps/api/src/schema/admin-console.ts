/**
 * The admin console's people and records (issue 13, ADR 045): admins and roles, the owner's
 * security policy, each admin's password and second factor, and the audit log. Every field
 * checks its permission on the server (requireAdmin) and every change is audited.
 */
import type { ApiContext } from '../context.ts';
import { AUDIT_ACTIONS } from '@velvet/validation/admin';
import { listAudit } from '../domain/audit-log.ts';
import type { AuditEntry } from '../domain/audit-log.ts';
import {
  changeAdminPassword,
  confirmSecondFactorSetup,
  createAdmin,
  disableAdmin,
  listAdmins,
  readSecurityPolicy,
  setAdminRole,
  setSecurityPolicy,
  startSecondFactorSetup,
} from '../services/manage-admins.ts';
import type { AdminSummary } from '../services/manage-admins.ts';
import { AdminRoleEnum, actorOf, requireAdmin } from './admin.ts';
import { builder } from './builder.ts';
import { UserErrorRef, answer } from './user-errors.ts';
import type { Answer } from './user-errors.ts';

const deps = (ctx: ApiContext) => ({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now });

const AdminRef = builder.objectRef<AdminSummary>('Admin');
AdminRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    email: t.exposeString('email'),
    role: t.field({ type: AdminRoleEnum, resolve: (a) => a.role }),
    secondFactorEnabled: t.exposeBoolean('secondFactorEnabled'),
    disabled: t.exposeBoolean('disabled'),
    createdAt: t.exposeString('createdAt'),
  }),
});


const CreatedAdminRef = builder.objectRef<Answer<{ id: string; email: string; password: string }>>('AdminCreatePayload');
CreatedAdminRef.implement({
  fields: (t) => ({
    admin: t.field({
      type: AdminRef,
      nullable: true,
      resolve: async (r, _args, ctx) => (r.value ? ((await listAdmins(ctx.db)).find((a) => a.id === r.value?.id) ?? null) : null),
    }),
    password: t.string({ nullable: true, description: 'Generated, shown this once; the new admin changes it after signing in.', resolve: (r) => r.value?.password ?? null }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const ChangePayloadRef = builder.objectRef<Answer<unknown>>('AdminChangePayload');
ChangePayloadRef.implement({
  description: 'done is true when the change was made (or there was nothing to change); otherwise userErrors say why.',
  fields: (t) => ({
    done: t.boolean({ resolve: (r) => r.userErrors.length === 0 }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const SetupRef = builder.objectRef<{ secret: string; uri: string; setupToken: string }>('SecondFactorSetup');
SetupRef.implement({
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'Base32, for typing into the authenticator app.' }),
    uri: t.exposeString('uri', { description: 'The otpauth:// URI (for a QR code).' }),
    setupToken: t.exposeString('setupToken', { description: 'Bring it back with the first code to adminConfirmSecondFactorSetup.' }),
  }),
});

const ConfirmedRef = builder.objectRef<Answer<{ recoveryCodes: string[] }>>('SecondFactorConfirmPayload');
ConfirmedRef.implement({
  fields: (t) => ({
    recoveryCodes: t.stringList({ description: 'Ten single-use codes, shown this once.', resolve: (r) => r.value?.recoveryCodes ?? [] }),
    userErrors: t.field({ type: [UserErrorRef], resolve: (r) => r.userErrors }),
  }),
});

const AuditEntryRef = builder.objectRef<AuditEntry>('AuditEntry');
AuditEntryRef.implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    at: t.exposeString('at', { description: 'ISO 8601.' }),
    actorEmail: t.string({ nullable: true, resolve: (e) => e.actorEmail }),
    clientAddress: t.string({ nullable: true, resolve: (e) => e.clientAddress }),
    action: t.exposeString('action', { description: `One of: ${AUDIT_ACTIONS.join(', ')}.` }),
    target: t.string({ nullable: true, resolve: (e) => e.target }),
    details: t.string({ description: 'JSON: { before, after } of a change, or the facts of the event.', resolve: (e) => JSON.stringify(e.details) }),
  }),
});

const AuditPageRef = builder.objectRef<{ entries: AuditEntry[]; nextCursor: string | null }>('AuditLogPage');
AuditPageRef.implement({
  fields: (t) => ({
    entries: t.field({ type: [AuditEntryRef], resolve: (p) => p.entries }),
    nextCursor: t.string({ nullable: true, description: 'Pass as `after` for the next (older) page; null on the last page.', resolve: (p) => p.nextCursor }),
  }),
});

builder.queryField('admins', (t) =>
  t.field({
    type: [AdminRef],
    description: 'Every admin (permission admins.manage: owner).',
    resolve: async (_root, _args, ctx) => {
      await requireAdmin(ctx, 'admins.manage');
      return listAdmins(ctx.db);
    },
  }),
);

builder.queryField('adminSecurityPolicy', (t) =>
  t.boolean({
    description: 'Whether every admin must use a second factor (permission admins.manage).',
    resolve: async (_root, _args, ctx) => {
      await requireAdmin(ctx, 'admins.manage');
      return (await readSecurityPolicy(ctx.db)).requireSecondFactor;
    },
  }),
);

builder.queryField('auditLog', (t) =>
  t.field({
    type: AuditPageRef,
    description: 'The audit log, newest first, 50 a page at most (permission audit.read: owner, privacy). It cannot be changed.',
    args: {
      action: t.arg.string({ required: false }),
      actor: t.arg.string({ required: false, description: 'An admin address, exact.' }),
      target: t.arg.string({ required: false, description: 'An address, code or admin, exact.' }),
      first: t.arg.int({ required: false, description: '1–50, default 50.' }),
      after: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      await requireAdmin(ctx, 'audit.read');
      const first = Math.min(Math.max(args.first ?? 50, 1), 50);
      return listAudit(ctx.db, { action: args.action?.slice(0, 64), actor: args.actor?.slice(0, 254), target: args.target?.slice(0, 254) }, { first, after: args.after });
    },
  }),
);

builder.mutationField('adminCreate', (t) =>
  t.field({
    type: CreatedAdminRef,
    description: 'A new admin with a role and a generated password (permission admins.manage). ADMIN_EXISTS, or INVALID_FIELD.',
    args: { email: t.arg.string({ required: true }), role: t.arg({ type: AdminRoleEnum, required: true }) },
    resolve: async (_root, { email, role }, ctx) => {
      const session = await requireAdmin(ctx, 'admins.manage');
      return answer(await createAdmin(deps(ctx), actorOf(ctx, session), { email, role }));
    },
  }),
);

builder.mutationField('adminSetRole', (t) =>
  t.field({
    type: ChangePayloadRef,
    description: "Changes an admin's role (admins.manage). ADMIN_NOT_FOUND, or LAST_OWNER (the club keeps an active owner).",
    args: { adminId: t.arg.string({ required: true }), role: t.arg({ type: AdminRoleEnum, required: true }) },
    resolve: async (_root, { adminId, role }, ctx) => {
      const session = await requireAdmin(ctx, 'admins.manage');
      return answer(await setAdminRole(deps(ctx), actorOf(ctx, session), { adminId, role }));
    },
  }),
);

builder.mutationField('adminDisable', (t) =>
  t.field({
    type: ChangePayloadRef,
    description: 'Disables an admin: their sessions end now, sign-in is refused (admins.manage). ADMIN_NOT_FOUND, LAST_OWNER.',
    args: { adminId: t.arg.string({ required: true }) },
    resolve: async (_root, { adminId }, ctx) => {
      const session = await requireAdmin(ctx, 'admins.manage');
      return answer(await disableAdmin(deps(ctx), actorOf(ctx, session), adminId));
    },
  }),
);

builder.mutationField('adminSetSecurityPolicy', (t) =>
  t.field({
    type: ChangePayloadRef,
    description: 'Requires a second factor of every admin, or not (admins.manage).',
    args: { requireSecondFactor: t.arg.boolean({ required: true }) },
    resolve: async (_root, { requireSecondFactor }, ctx) => {
      const session = await requireAdmin(ctx, 'admins.manage');
      return answer(await setSecurityPolicy(deps(ctx), actorOf(ctx, session), requireSecondFactor));
    },
  }),
);

builder.mutationField('adminChangePassword', (t) =>
  t.field({
    type: ChangePayloadRef,
    description: "Changes the signed-in admin's own password; all their sessions end, this one too. WRONG_PASSWORD, INVALID_FIELD.",
    args: { currentPassword: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const session = await requireAdmin(ctx, null);
      return answer(await changeAdminPassword(deps(ctx), actorOf(ctx, session), args));
    },
  }),
);

builder.mutationField('adminStartSecondFactorSetup', (t) =>
  t.field({
    type: SetupRef,
    description: 'A new TOTP secret for the signed-in admin; nothing changes until adminConfirmSecondFactorSetup.',
    resolve: async (_root, _args, ctx) => {
      const session = await requireAdmin(ctx, null);
      return startSecondFactorSetup(deps(ctx), session.adminUserId);
    },
  }),
);

builder.mutationField('adminConfirmSecondFactorSetup', (t) =>
  t.field({
    type: ConfirmedRef,
    description: 'A first code confirms the set-up: the factor is in force, ten recovery codes come back once. INVALID_SECOND_FACTOR.',
    args: { setupToken: t.arg.string({ required: true }), code: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const session = await requireAdmin(ctx, null);
      return answer(await confirmSecondFactorSetup(deps(ctx), actorOf(ctx, session), args));
    },
  }),
);
