/**
 * The access-code form (spec §5), apart from registration-code.ts so that what the public pages
 * read of the codes (the refusal table, the format) comes without Zod (ADR 037).
 */
import { z } from 'zod';
import { REGISTRATION_CODE_MAX_LENGTH } from './registration-code.ts';

/**
 * The access-code field of "Your code is the key" (spec §5): one message per problem —
 * missing ("Please provide an access code."), characters no code has ("Please use valid
 * characters"), or too long to be a code ("Your code is not valid.").
 */
export const accessCode = z
  .string({ error: 'validation.accessCodeMissing' })
  .trim()
  .min(1, { error: 'validation.accessCodeMissing', abort: true })
  .regex(/^[A-Za-z0-9\s-]+$/, { error: 'validation.invalidCharacters', abort: true })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().max(REGISTRATION_CODE_MAX_LENGTH, { error: 'validation.accessCodeInvalid' }));

export const accessCodeForm = z.object({ code: accessCode });
