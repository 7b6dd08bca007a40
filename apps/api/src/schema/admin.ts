import { createHash } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { GraphQLError } from 'graphql';
import type { ApiContext } from '../context.ts';
import { ADMIN_LOGIN_SLOWDOWN_MS, enforceRateLimit } from '../rate-limit.ts';
import { loginAdmin, revokeAdminSession } from '../auth/admin-sessions.ts';
import type { AdminSessionInfo } from '../auth/admin-sessions.ts';
import { generateRegistrationLink } from '../services/generate-registration-link.ts';
import type { GeneratedLink } from '../services/generate-registration-link.ts';
import { builder } from './builder.ts';
import { RegistrationCodeErrorEnum } from './registration-code.ts';

/** Admin-only fields throw this when the request has no live admin session. */
export async function requireAdmin(ctx: ApiContext): Promise<AdminSessionInfo> {
  const session = await ctx.adminSession();
  if (!session) throw new GraphQLError('Admin sign-in required.', { extensions: { code: 'UNAUTHENTICATED' } });
  return session;
}

const AdminLoginErrorEnum = builder.enumType('AdminLoginError', {
  values: { INVALID_CREDENTIALS: { value: 'INVALID_CREDENTIALS', description: 'Unknown email or wrong password (not told apart).' } } as const,
});

type LoginResult = { token: string | null; expiresAt: string | null; error: 'INVALID_CREDENTIALS' | null };

const AdminLoginPayloadRef = builder.objectRef<LoginResult>('AdminLoginPayload');
AdminLoginPayloadRef.implement({
  description: 'Either token and expiresAt, or error.',
  fields: (t) => ({
    token: t.string({
      nullable: true,
      description: 'Send as `Authorization: Bearer <token>`; valid until expiresAt or adminLogout.',
      resolve: (r) => r.token,
    }),
    expiresAt: t.string({ nullable: true, description: 'ISO 8601; 8 hours after sign-in.', resolve: (r) => r.expiresAt }),
    error: t.field({ type: AdminLoginErrorEnum, nullable: true, resolve: (r) => r.error }),
  }),
});

const AdminSessionRef = builder.objectRef<AdminSessionInfo>('AdminSession');
AdminSessionRef.implement({
  fields: (t) => ({
    email: t.exposeString('email'),
    expiresAt: t.exposeString('expiresAt', { description: 'ISO 8601.' }),
  }),
});

const GenerateRegistrationLinkPayloadRef = builder.objectRef<GeneratedLink>('GenerateRegistrationLinkPayload');
GenerateRegistrationLinkPayloadRef.implement({
  description: 'A signed registration link, or why the code cannot have one.',
  fields: (t) => ({
    url: t.string({ nullable: true, description: '`<site>/?rc=CODE&validityTimestamp=...`, valid 14 days.', resolve: (r) => r.url }),
    expiresAt: t.string({ nullable: true, description: 'ISO 8601.', resolve: (r) => r.expiresAt }),
    errors: t.field({
      type: [RegistrationCodeErrorEnum],
      description: 'Blocking code errors as in registrationCodeDetails (REGISTRATION_TIMESTAMP_MISSING excepted); no url when non-empty.',
      resolve: (r) => r.errors,
    }),
  }),
});

const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

builder.mutationField('adminLogin', (t) =>
  t.field({
    type: AdminLoginPayloadRef,
    description:
      'Signs an admin in. Rate limited per client IP (5/minute) and per email and client IP (10/hour): RATE_LIMITED with ' +
      'retryAfterSeconds. Beyond 30 failures a minute from everyone together, failures are answered a second later.',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, { email, password }, ctx) => {
      await enforceRateLimit(ctx.limiters.adminLoginIp, ctx.requestNetwork);
      // Per account only together with the address: strangers elsewhere cannot lock the admin out.
      await enforceRateLimit(ctx.limiters.adminLoginAccountIp, `${emailKey(email)}:${ctx.requestNetwork}`);
      const result = await loginAdmin({ db: ctx.db, secret: ctx.env.APP_SECRET, now: ctx.now }, { email, password });
      if (!result.ok) {
        ctx.logger.warn({ event: 'admin-login-failed' }, 'admin sign-in refused');
        // Many failures everywhere (a distributed guess): slower answers, never a lockout.
        const failures = await ctx.limiters.adminLoginFailures.consume('all');
        if (!failures.allowed) await setTimeout(ADMIN_LOGIN_SLOWDOWN_MS);
        return { token: null, expiresAt: null, error: 'INVALID_CREDENTIALS' as const };
      }
      ctx.logger.info({ event: 'admin-login' }, 'admin signed in');
      return { token: result.token, expiresAt: result.expiresAt, error: null };
    },
  }),
);

builder.mutationField('adminLogout', (t) =>
  t.boolean({
    description: 'Revokes the session of the Bearer token; false when there was no live session.',
    resolve: async (_root, _args, ctx) => {
      const session = await ctx.adminSession();
      return session ? revokeAdminSession(ctx.db, session.sessionId, ctx.now) : false;
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
    description: 'Admin only (otherwise a GraphQL error with extensions.code UNAUTHENTICATED): a registration link valid 14 days.',
    args: { registrationCode: t.arg.string({ required: true }) },
    resolve: async (_root, { registrationCode }, ctx) => {
      await requireAdmin(ctx);
      return generateRegistrationLink({ db: ctx.db, secret: ctx.env.APP_SECRET, publicUrl: ctx.env.PUBLIC_URL, now: ctx.now }, registrationCode);
    },
  }),
);
