import { setTimeout } from 'node:timers/promises';
import { GraphQLError } from 'graphql';
import type { ApiContext } from '../context.ts';
import { ADMIN_LOGIN_SLOWDOWN_MS, enforceRateLimit } from '../rate-limit.ts';
import { loginAdmin, revokeAdminSession, verifySecondFactor } from '../auth/admin-sessions.ts';
import type { AdminSessionInfo, RefusalReason, SignInResult } from '../auth/admin-sessions.ts';
import { ADMIN_PERMISSIONS, ADMIN_ROLES, can } from '@velvet/validation/admin';
import type { AdminPermission, AdminRole } from '@velvet/validation/admin';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { isLocale } from '@velvet/i18n/locales';
import { recordAudit } from '../domain/audit-log.ts';
import type { AuditActor } from '../domain/audit-log.ts';
import { readSecurityPolicy } from '../services/manage-admins.ts';
import { generateRegistrationLink } from '../services/generate-registration-link.ts';
import type { GeneratedLink } from '../services/generate-registration-link.ts';
import type { UserError } from '@velvet/validation/user-errors';
import { keyedName } from '../lib/tokens.ts';
import { builder } from './builder.ts';
import { UserErrorRef, userErrorsOf } from './user-errors.ts';

/**
 * Admin-only fields call this first: no live session → UNAUTHENTICATED; a role without the
 * permission → FORBIDDEN; while the owner requires a second factor and this admin has none, only
 * the second-factor set-up (permission null) is open → SECOND_FACTOR_REQUIRED.
 */
export async function requireAdmin(ctx: ApiContext, permission: AdminPermission | null = 'acquisition.read'): Promise<AdminSessionInfo> {
  const session = await ctx.adminSession();
  if (!session) throw new GraphQLError('Admin sign-in required.', { extensions: { code: 'UNAUTHENTICATED' } });
  if (permission === null) return session;
  if (!session.secondFactorEnabled && (await readSecurityPolicy(ctx.db)).requireSecondFactor) {
    throw new GraphQLError('Set up a second factor first.', { extensions: { code: 'SECOND_FACTOR_REQUIRED' } });
  }
  if (!can(session.role, permission)) throw new GraphQLError('Your role may not do this.', { extensions: { code: 'FORBIDDEN', permission } });
  return session;
}

/** The audit log's actor of this request. */
export function actorOf(ctx: ApiContext, session: AdminSessionInfo): AuditActor & { adminId: string } {
  return { adminId: session.adminUserId, email: session.email, clientAddress: ctx.requestIp };
}

type LoginResult = { token: string | null; expiresAt: string | null; secondFactorChallenge: string | null; userErrors: UserError[] };

/** Unknown email or wrong password, not told apart. */
const INVALID_CREDENTIALS: UserError = { code: 'INVALID_CREDENTIALS', field: null, messageId: 'admin.login.invalid' };

const AdminLoginPayloadRef = builder.objectRef<LoginResult>('AdminLoginPayload');
AdminLoginPayloadRef.implement({
  description:
    'Either token and expiresAt; or secondFactorChallenge (the password was right, the admin has a second factor: send ' +
    'it with a code to adminVerifySecondFactor); or userErrors.',
  fields: (t) => ({
    token: t.string({
      nullable: true,
      description: 'Send as `Authorization: Bearer <token>`; valid until expiresAt or adminLogout.',
      resolve: (r) => r.token,
    }),
    expiresAt: t.string({ nullable: true, description: 'ISO 8601; 8 hours after sign-in.', resolve: (r) => r.expiresAt }),
    secondFactorChallenge: t.string({
      nullable: true,
      description: 'Valid 5 minutes; redeemed by adminVerifySecondFactor with a TOTP code or a recovery code.',
      resolve: (r) => r.secondFactorChallenge,
    }),
    userErrors: t.field({ type: [UserErrorRef], description: 'Empty on success.', resolve: (r) => r.userErrors }),
  }),
});

export const AdminRoleEnum = builder.enumType('AdminRole', {
  description: 'owner: everything, and the admins; operator: codes, waiting list, flags, outbox; support: member look-up, ' +
    'resend, free a place; privacy: export and delete, the audit log; viewer: read-only.',
  values: Object.fromEntries(ADMIN_ROLES.map((role) => [role.toUpperCase(), { value: role }])) as Record<Uppercase<AdminRole>, { value: AdminRole }>,
});

const AdminSessionRef = builder.objectRef<AdminSessionInfo>('AdminSession');
AdminSessionRef.implement({
  fields: (t) => ({
    email: t.exposeString('email'),
    expiresAt: t.exposeString('expiresAt', { description: 'ISO 8601.' }),
    role: t.field({ type: AdminRoleEnum, resolve: (s) => s.role }),
    permissions: t.stringList({
      description: 'What this role may do (acquisition.read, codes.manage, …): for showing only what would be allowed.',
      resolve: (s) => (Object.keys(ADMIN_PERMISSIONS) as AdminPermission[]).filter((permission) => can(s.role, permission)),
    }),
    secondFactorEnabled: t.exposeBoolean('secondFactorEnabled'),
    secondFactorRequired: t.boolean({
      description: 'The owner requires a second factor and this admin has none: only its set-up is open until then.',
      resolve: async (s, _args, ctx) => !s.secondFactorEnabled && (await readSecurityPolicy(ctx.db)).requireSecondFactor,
    }),
  }),
});

const GenerateRegistrationLinkPayloadRef = builder.objectRef<GeneratedLink>('GenerateRegistrationLinkPayload');
GenerateRegistrationLinkPayloadRef.implement({
  description: 'A signed registration link, or why the code cannot have one.',
  fields: (t) => ({
    url: t.string({ nullable: true, description: '`<site>/?rc=CODE&validityTimestamp=...`, valid 14 days.', resolve: (r) => r.url }),
    expiresAt: t.string({ nullable: true, description: 'ISO 8601.', resolve: (r) => r.expiresAt }),
    userErrors: t.field({
      type: [UserErrorRef],
      description: 'Blocking code errors as in registrationCodeDetails (REGISTRATION_TIMESTAMP_MISSING excepted); no url when non-empty.',
      resolve: (r) => userErrorsOf({ codeErrors: r.errors }),
    }),
  }),
});

const LANGUAGE_ARG = 'The console\'s language (en, de, fr, it, nl, pl or sv; anything else is ignored): kept when the sign-in completes, for the emails the club sends the admin.';

/** The admin's address in the rate limiter's key (Redis when REDIS_URL is set): a keyed name, never the address or a bare hash of it. */
const emailKey = (secret: string, email: string) => keyedName(secret, 'admin-login-limit', email.trim().toLowerCase());

builder.mutationField('adminLogin', (t) =>
  t.field({
    type: AdminLoginPayloadRef,
    description:
      'Signs an admin in (the password step). Rate limited per client IP (5/minute) and per email and client IP (10/hour): ' +
      'RATE_LIMITED with retryAfterSeconds. Beyond 30 failures a minute from everyone together, failures are answered a ' +
      'second later. Every sign-in and failed sign-in is in the audit log.',
    args: {
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      language: t.arg.string({ required: false, description: LANGUAGE_ARG }),
    },
    resolve: async (_root, { email, password, language }, ctx) => {
      await enforceRateLimit(ctx.limiters.adminLoginIp, ctx.requestNetwork);
      // Per account only together with the address: strangers elsewhere cannot lock the admin out.
      await enforceRateLimit(ctx.limiters.adminLoginAccountIp, `${emailKey(ctx.env.APP_SECRET, email)}:${ctx.requestNetwork}`);
      const result = await loginAdmin({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now }, { email, password });
      return signInAnswer(ctx, result, email.trim().toLowerCase(), language);
    },
  }),
);

builder.mutationField('adminVerifySecondFactor', (t) =>
  t.field({
    type: AdminLoginPayloadRef,
    description:
      'The second step of signing in: the challenge of adminLogin with a 6-digit code of the authenticator app (each code ' +
      'is good once) or a recovery code (spent with it); a challenge gives one session. INVALID_SECOND_FACTOR; ' +
      'SECOND_FACTOR_EXPIRED (sign in again); SECOND_FACTOR_ATTEMPTS_EXHAUSTED after a challenge\'s fifth wrong code (sign ' +
      'in again); SECOND_FACTOR_LOCKED after ten wrong codes of the admin in 15 minutes (until those 15 minutes end). ' +
      'Rate limited per client network (10/minute; an IPv6 /64 is one client).',
    args: {
      challenge: t.arg.string({ required: true }),
      code: t.arg.string({ required: true }),
      language: t.arg.string({ required: false, description: LANGUAGE_ARG }),
    },
    resolve: async (_root, { challenge, code, language }, ctx) => {
      // Per network: an IPv6 client has a /64 of addresses. Per challenge and per admin: verifySecondFactor.
      await enforceRateLimit(ctx.limiters.adminSecondFactorIp, ctx.requestNetwork);
      const result = await verifySecondFactor({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now }, { challenge, code });
      return signInAnswer(ctx, result, null, language);
    },
  }),
);

const SECOND_FACTOR_ERRORS: Record<Exclude<RefusalReason, 'credentials'>, UserError> = {
  challenge: { code: 'SECOND_FACTOR_EXPIRED', field: null, messageId: 'admin.secondFactor.expired' },
  'second-factor': { code: 'INVALID_SECOND_FACTOR', field: 'code', messageId: 'admin.secondFactor.invalid' },
  'attempts-exhausted': { code: 'SECOND_FACTOR_ATTEMPTS_EXHAUSTED', field: null, messageId: 'admin.secondFactor.tooManyAttempts' },
  locked: { code: 'SECOND_FACTOR_LOCKED', field: null, messageId: 'admin.secondFactor.locked' },
};

/** The payload of either sign-in step, with its audit record; a completed sign-in keeps the console's language. */
async function signInAnswer(ctx: ApiContext, result: SignInResult, typedEmail: string | null, language: string | null | undefined): Promise<LoginResult> {
  const admin = result.adminUserId
    ? await ctx.db.selectFrom('admin_users').select('email').where('id', '=', result.adminUserId).executeTakeFirst()
    : undefined;
  const actor: AuditActor = { adminId: result.adminUserId, email: admin?.email ?? typedEmail, clientAddress: ctx.requestIp };
  if (result.kind === 'refused') {
    ctx.logger.warn({ event: 'admin-login-failed' }, 'admin sign-in refused');
    const action = result.reason === 'credentials' ? 'admin.sign-in-failed' : 'admin.second-factor-failed';
    await recordAudit(ctx.db, actor, { action, details: { reason: result.reason } }, ctx.now ?? new Date());
    // Many failures everywhere (a distributed guess): slower answers, never a lockout.
    const failures = await ctx.limiters.adminLoginFailures.consume('all');
    if (!failures.allowed) await setTimeout(ADMIN_LOGIN_SLOWDOWN_MS);
    const error = result.reason === 'credentials' ? INVALID_CREDENTIALS : SECOND_FACTOR_ERRORS[result.reason];
    return { token: null, expiresAt: null, secondFactorChallenge: null, userErrors: [error] };
  }
  if (result.kind === 'second-factor') {
    return { token: null, expiresAt: null, secondFactorChallenge: result.challenge, userErrors: [] };
  }
  if (isLocale(language)) await ctx.db.updateTable('admin_users').set({ language }).where('id', '=', result.adminUserId).execute();
  await recordAudit(ctx.db, actor, { action: 'admin.signed-in' }, ctx.now ?? new Date());
  ctx.logger.info({ event: 'admin-login' }, 'admin signed in');
  return { token: result.token, expiresAt: result.expiresAt, secondFactorChallenge: null, userErrors: [] };
}

builder.mutationField('adminLogout', (t) =>
  t.boolean({
    description: 'Revokes the session of the Bearer token; false when there was no live session.',
    resolve: async (_root, _args, ctx) => {
      const session = await ctx.adminSession();
      if (!session) return false;
      const revoked = await revokeAdminSession(ctx.db, session.sessionId, ctx.now);
      if (revoked) await recordAudit(ctx.db, actorOf(ctx, session), { action: 'admin.signed-out' }, ctx.now ?? new Date());
      return revoked;
    },
  }),
);

builder.queryField('adminSession', (t) =>
  t.field({
    type: AdminSessionRef,
    nullable: true,
    description: 'The admin session of the `Authorization: Bearer` token; null when absent, invalid, expired or revoked.',
    resolve: (_root, _args, ctx) => ctx.adminSession(),
  }),
);

builder.mutationField('generateRegistrationLink', (t) =>
  t.field({
    type: GenerateRegistrationLinkPayloadRef,
    description:
      'Permission codes.manage (owner, operator; otherwise UNAUTHENTICATED or FORBIDDEN): a registration link valid 14 days; audited.',
    args: { registrationCode: t.arg.string({ required: true }) },
    resolve: async (_root, { registrationCode }, ctx) => {
      const session = await requireAdmin(ctx, 'codes.manage');
      const link = await generateRegistrationLink({ db: ctx.db, secret: ctx.env.APP_SECRET, publicUrl: ctx.env.PUBLIC_URL, now: ctx.now }, registrationCode);
      if (link.url) {
        await recordAudit(ctx.db, actorOf(ctx, session), { action: 'link.generated', target: normalizeRegistrationCode(registrationCode).slice(0, 64), details: { expiresAt: link.expiresAt } }, ctx.now ?? new Date());
      }
      return link;
    },
  }),
);
