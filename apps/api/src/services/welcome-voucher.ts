/**
 * The welcome voucher's code. Its terms per customization (percent, minimum order value,
 * validity) are the shared table of @velvet/validation/customization.
 */
import { randomInt } from 'node:crypto';
import { CODE_ALPHABET } from './create-registration-code.ts';

/** `WELCOME-XXXX-XXXX-XXXX` from the unambiguous alphabet of registration codes (~59 random bits). */
export function generateVoucherCode(): string {
  const group = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `WELCOME-${group()}-${group()}-${group()}`;
}
