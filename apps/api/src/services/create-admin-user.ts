/** Creates an admin user for the admin pages (CLI; the first one is an owner). The password is stored as a scrypt hash. */
import { randomBytes, randomUUID } from 'node:crypto';
import { ADMIN_PASSWORD_MAX_LENGTH, ADMIN_PASSWORD_MIN_LENGTH, ADMIN_ROLES } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { hashPassword } from '../lib/password.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';

const createAdminUserInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('email must be a valid email address')),
  password: z
    .string()
    .min(ADMIN_PASSWORD_MIN_LENGTH, `password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`)
    .max(ADMIN_PASSWORD_MAX_LENGTH, 'password is too long')
    .optional(),
  role: z.enum(ADMIN_ROLES, `role must be one of ${ADMIN_ROLES.join(', ')}`).default('owner'),
});
export type CreateAdminUserInput = z.input<typeof createAdminUserInput>;

export interface CreatedAdminUser {
  id: string;
  email: string;
  role: AdminRole;
  /** Set only when the password was generated here; show it once, it is not stored. */
  generatedPassword: string | null;
}

/** 24 URL-safe characters, 144 bits. */
function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export async function createAdminUser(
  db: Db,
  rawInput: CreateAdminUserInput,
  now: Date = new Date(),
): Promise<Result<CreatedAdminUser, string>> {
  const parsed = createAdminUserInput.safeParse(rawInput);
  if (!parsed.success) return fail(...parsed.error.issues.map((issue) => issue.message));
  const { email } = parsed.data;
  const generatedPassword = parsed.data.password === undefined ? generatePassword() : null;
  const password = parsed.data.password ?? generatedPassword ?? '';
  const id = randomUUID();
  try {
    await db
      .insertInto('admin_users')
      .values({ id, email, password_hash: await hashPassword(password), created_at: now.toISOString(), role: parsed.data.role })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) return fail('an admin user with this email already exists');
    throw error;
  }
  return ok({ id, email, role: parsed.data.role, generatedPassword });
}
