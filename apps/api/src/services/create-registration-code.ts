/**
 * Issues a registration code for a new, active inviter member (admin CLI; later the
 * admin API). Input is validated here so every caller gets the same rules.
 */
import { randomUUID } from 'node:crypto';
import { REGISTRATION_CODE_PATTERN, normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { CUSTOMIZATIONS } from '@velvet/validation/customization';
import type { Customization } from '@velvet/validation/customization';
import { randomCode } from '../domain/random-codes.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';

const GENERATED_CODE_LENGTH = 8;
export const INVITER_EMAIL_DOMAIN = 'members.velvetrope.localhost';

export function generateRegistrationCode(): string {
  return randomCode(GENERATED_CODE_LENGTH);
}

const createRegistrationCodeInput = z.object({
  inviterFirstName: z.string().trim().min(1, 'inviter name is required').max(100, 'inviter name is too long'),
  balance: z.number().int('balance must be a whole number').min(0, 'balance must not be negative').max(1_000_000),
  code: z
    .string()
    .transform(normalizeRegistrationCode)
    .pipe(z.string().regex(REGISTRATION_CODE_PATTERN, 'code must be 4-64 letters, digits or hyphens'))
    .optional(),
  expiresAt: z.date().optional(),
  customization: z.enum(CUSTOMIZATIONS, { error: `customization must be one of: ${CUSTOMIZATIONS.join(', ')}` }).optional(),
  landingSlug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'slug must be lower-case letters, digits and hyphens')
    .optional(),
  requiresValidityTimestamp: z.boolean().default(false),
});
export type CreateRegistrationCodeInput = z.input<typeof createRegistrationCodeInput>;

export interface CreatedRegistrationCode {
  id: string;
  code: string;
  inviterMemberId: string;
  inviterEmail: string;
  balance: number;
  expiresAt: string | null;
  customization: Customization | null;
  landingSlug: string | null;
  requiresValidityTimestamp: boolean;
}

function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return slug || 'member';
}

export async function createRegistrationCode(
  db: Db,
  rawInput: CreateRegistrationCodeInput,
  now: Date = new Date(),
): Promise<Result<CreatedRegistrationCode>> {
  const parsed = createRegistrationCodeInput.safeParse(rawInput);
  if (!parsed.success) return fail(...parsed.error.issues.map((issue) => issue.message));
  const input = parsed.data;
  if (input.expiresAt && Number.isNaN(input.expiresAt.getTime())) return fail('expiry must be a valid date');

  const createdAt = now.toISOString();
  const inviterMemberId = randomUUID();
  const inviterEmail = `inviter+${slugify(input.inviterFirstName)}-${inviterMemberId.slice(0, 8)}@${INVITER_EMAIL_DOMAIN}`;

  for (let attempt = 0; attempt < 5; attempt++) {
    const code = input.code ?? generateRegistrationCode();
    const created: CreatedRegistrationCode = {
      id: randomUUID(),
      code,
      inviterMemberId,
      inviterEmail,
      balance: input.balance,
      expiresAt: input.expiresAt?.toISOString() ?? null,
      customization: input.customization ?? null,
      landingSlug: input.landingSlug ?? null,
      requiresValidityTimestamp: input.requiresValidityTimestamp,
    };
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('members')
          .values({
            id: inviterMemberId,
            email: inviterEmail,
            first_name: input.inviterFirstName,
            last_name: 'Inviter',
            gender: null,
            country: null,
            language: null,
            status: 'active',
            registration_code_id: null,
            newsletter: false,
            created_at: createdAt,
            activated_at: createdAt,
          })
          .execute();
        await trx
          .insertInto('registration_codes')
          .values({
            id: created.id,
            code,
            inviter_member_id: inviterMemberId,
            balance: created.balance,
            expires_at: created.expiresAt,
            customization: created.customization,
            landing_slug: created.landingSlug,
            requires_validity_timestamp: created.requiresValidityTimestamp,
            disabled: false,
            created_at: createdAt,
          })
          .execute();
      });
      return ok(created);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (input.code !== undefined) return fail(`registration code ${code} already exists`);
      // A generated code collided: draw another one.
    }
  }
  return fail('could not generate a unique code, try again');
}
