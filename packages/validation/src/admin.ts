/**
 * The admin sign-in form. One message per problem: an empty form is one problem ("Please
 * enter your email address and password."), otherwise each field says what is missing or
 * malformed. "The email address or password is not correct." is the API's answer only,
 * never said about fields nobody checked.
 */
import { z } from 'zod';

const ADMIN_LOGIN_MESSAGE_IDS = {
  missing: 'admin.login.missing',
  email: 'validation.email',
  passwordMissing: 'admin.login.passwordMissing',
  invalid: 'admin.login.invalid',
} as const;

export const ADMIN_PASSWORD_MIN_LENGTH = 12;
export const ADMIN_PASSWORD_MAX_LENGTH = 1024;

const ADDRESS = z.email();

/** Empty fields arrive as undefined (Conform's coercion) or "". */
export const adminLoginForm = z
  // No admin password is longer than ADMIN_PASSWORD_MAX_LENGTH (create-admin-user.ts): such a one is wrong.
  .object({
    email: z.string().trim().toLowerCase().optional(),
    password: z.string().max(ADMIN_PASSWORD_MAX_LENGTH, { error: ADMIN_LOGIN_MESSAGE_IDS.invalid }).optional(),
  })
  .superRefine((value, ctx) => {
    const email = value.email ?? '';
    const password = value.password ?? '';
    if (!email && !password) {
      ctx.addIssue({ code: 'custom', path: [], message: ADMIN_LOGIN_MESSAGE_IDS.missing });
      return;
    }
    if (!ADDRESS.safeParse(email).success) ctx.addIssue({ code: 'custom', path: ['email'], message: ADMIN_LOGIN_MESSAGE_IDS.email });
    if (!password) ctx.addIssue({ code: 'custom', path: ['password'], message: ADMIN_LOGIN_MESSAGE_IDS.passwordMissing });
  })
  .transform((value) => ({ email: value.email ?? '', password: value.password ?? '' }));

/**
 * Who runs the club's door (issue 13): each admin has one role, and each admin action names the
 * permission it needs. The API checks it on every call (`requirePermission`); the web only uses
 * it to hide what would be refused anyway.
 */
export const ADMIN_ROLES = ['owner', 'operator', 'support', 'privacy', 'viewer'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

const EVERYONE: readonly AdminRole[] = ADMIN_ROLES;

export const ADMIN_PERMISSIONS = {
  /** Read codes, the funnel, the waiting list and applicants, the outbox, flags and experiments. */
  'acquisition.read': EVERYONE,
  /** Create, change, revoke and rotate codes; generate links. */
  'codes.manage': ['owner', 'operator'],
  /** Invite from the waiting list and the applicants; set the daily admission capacity. */
  'waitlist.manage': ['owner', 'operator'],
  /** Change feature flags and experiments. */
  'features.manage': ['owner', 'operator'],
  /** Retry emails of the outbox. */
  'outbox.manage': ['owner', 'operator'],
  /** Look up one address (exact match), resend an activation, free a pending place. */
  'members.support': ['owner', 'support', 'privacy'],
  /** Export and delete everything held about an address. */
  'privacy.manage': ['owner', 'privacy'],
  /** Read the audit log. */
  'audit.read': ['owner', 'privacy'],
  /** Create admins, change their roles, disable them, require a second factor for everyone. */
  'admins.manage': ['owner'],
  /** Write the decline reasons (seven languages) and set the cool-down before a declined applicant may apply again (issue 24 §1). */
  'decisions.configure': ['owner'],
  /** Configure webhook endpoints, see their deliveries, replay them (issue 24 §4, ADR 065). */
  'webhooks.manage': ['owner'],
} as const satisfies Record<string, readonly AdminRole[]>;
export type AdminPermission = keyof typeof ADMIN_PERMISSIONS;

export function can(role: AdminRole, permission: AdminPermission): boolean {
  return (ADMIN_PERMISSIONS[permission] as readonly AdminRole[]).includes(role);
}

/**
 * The second sign-in step: the challenge of the password step and a code — six digits from the
 * authenticator app, or a recovery code (letters and digits, dashes and spaces allowed).
 */
export const adminSecondFactorForm = z.object({
  challenge: z.string({ error: 'admin.secondFactor.expired' }).min(1, { error: 'admin.secondFactor.expired' }).max(4096, { error: 'admin.secondFactor.expired' }),
  code: z
    .string({ error: 'admin.secondFactor.missing' })
    .trim()
    .min(1, { error: 'admin.secondFactor.missing', abort: true })
    .regex(/^(\d{6}|[A-Za-z0-9][A-Za-z0-9 -]{14,22})$/, { error: 'admin.secondFactor.invalid' }),
});

/** The security page's forms: the first code of a new authenticator, and a password change. */
export const secondFactorSetupForm = z.object({
  setupToken: z.string({ error: 'admin.secondFactor.notStarted' }).min(1, { error: 'admin.secondFactor.notStarted' }).max(4096),
  uri: z.string().max(512).optional(),
  code: z
    .string({ error: 'admin.secondFactor.missing' })
    .trim()
    .min(1, { error: 'admin.secondFactor.missing', abort: true })
    .regex(/^\d{6}$/, { error: 'admin.secondFactor.invalid' }),
});

export const changePasswordForm = z.object({
  currentPassword: z.string({ error: 'admin.login.passwordMissing' }).min(1, { error: 'admin.login.passwordMissing' }).max(ADMIN_PASSWORD_MAX_LENGTH),
  newPassword: z
    .string({ error: 'admin.password.tooShort' })
    .min(ADMIN_PASSWORD_MIN_LENGTH, { error: 'admin.password.tooShort' })
    .max(ADMIN_PASSWORD_MAX_LENGTH, { error: 'admin.password.tooLong' }),
});

/** What the audit log records (apps/api/src/domain/audit-log.ts); the console filters by them. */
export const AUDIT_ACTIONS = [
  'admin.signed-in',
  'admin.sign-in-failed',
  'admin.second-factor-failed',
  'admin.signed-out',
  'admin.created',
  'admin.role-changed',
  'admin.disabled',
  'admin.password-changed',
  'admin.second-factor-enabled',
  'admin.recovery-code-used',
  'admin.security-policy-changed',
  'link.generated',
  'member.activation-resent',
  'member.place-freed',
  'privacy.exported',
  'privacy.erased',
  'privacy.newsletter-withdrawn',
  'privacy.request-received',
  'privacy.request-done',
  'waitlist.invited',
  'waitlist.release-started',
  'waitlist.admitted',
  'waitlist.capacity-changed',
  'applicants.selected',
  'applicants.declined',
  'applicants.reason-saved',
  'applicants.cooldown-changed',
  'outbox.retried',
  'feature.set',
  'feature.reset',
  'experiment.set',
  'code.created',
  'code.changed',
  'code.revoked',
  'code.rotated',
  'code.released',
  'webhook.created',
  'webhook.changed',
  'webhook.secret-rotated',
  'webhook.deleted',
  'webhook.replayed',
] as const;

/**
 * What a webhook endpoint can hear (issue 24 §4, ADR 065): the types of the events the door
 * sends, each with a small payload (apps/api/src/webhooks/events.ts).
 */
export const WEBHOOK_EVENT_TYPES = [
  'member.registered',
  'member.activated',
  'waitlist.joined',
  'application.received',
  'application.decided',
  'code.quarantined',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The owner's new-admin form: an address and one of the roles. */
export const newAdminForm = z.object({
  email: z.string({ error: 'validation.email' }).trim().toLowerCase().pipe(z.email({ error: 'validation.email' })),
  role: z.enum(ADMIN_ROLES, { error: 'validation.role' }),
});

