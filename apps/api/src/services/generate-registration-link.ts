/**
 * Mutation.generateRegistrationLink (admin): the same checks as registrationCodeDetails,
 * then a signed link valid REGISTRATION_LINK_VALIDITY_DAYS. A missing validityTimestamp is
 * not an error here: making one is the point (link-only codes need exactly this).
 */
import { isBlocking } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import type { Db } from '../db/connect.ts';
import { checkRegistrationCode } from './check-registration-code.ts';
import { createRegistrationLink } from '../domain/registration-link.ts';

export interface GeneratedLink {
  url: string | null;
  expiresAt: string | null;
  errors: RegistrationCodeError[];
}

export async function generateRegistrationLink(
  deps: { db: Db; secret: string; publicUrl: string; now?: Date },
  registrationCode: string,
): Promise<GeneratedLink> {
  const now = deps.now ?? new Date();
  const check = await checkRegistrationCode({ db: deps.db, secret: deps.secret, referrerBlocklist: [], now }, { registrationCode });
  const errors = check.errors.filter((error) => isBlocking(error) && error !== 'REGISTRATION_TIMESTAMP_MISSING');
  if (errors.length > 0) return { url: null, expiresAt: null, errors };
  const link = createRegistrationLink({ publicUrl: deps.publicUrl, code: registrationCode, secret: deps.secret, now });
  return { url: link.url, expiresAt: link.expiresAt.toISOString(), errors: [] };
}
