/**
 * The pseudonym of an address (ADR 048): what the audit log and the deletion records name instead
 * of the address. HMAC-SHA256 with a key of APP_SECRET over the normalized address: the same
 * address always gives the same reference (so a later request can be matched to an earlier one by
 * someone who is told the address), while the reference alone tells nobody the address.
 */
import { keyedName } from '../lib/tokens.ts';

export function privacySubject(email: string, secret: string): string {
  return `subject:${keyedName(secret, 'privacy-subject', email.trim().toLowerCase())}`;
}
