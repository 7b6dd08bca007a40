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
