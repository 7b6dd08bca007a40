/**
 * The welcome voucher's code. Its terms per customization (percent, minimum order value,
 * validity) are the shared table of @velvet/validation/customization.
 */
import { randomCode } from './random-codes.ts';

/** `WELCOME-XXXX-XXXX-XXXX` from the unambiguous alphabet of registration codes (~59 random bits). */
export function generateVoucherCode(): string {
  return `WELCOME-${randomCode(4)}-${randomCode(4)}-${randomCode(4)}`;
}
