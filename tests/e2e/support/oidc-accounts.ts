/**
 * The people of the test OpenID Connect provider (oidc-provider.ts): who you are depends on the
 * login name you type on its sign-in page (any password will do).
 *
 *   verified+…@example.com    that address, email_verified true
 *   unverified+…@example.com  that address, email_verified false
 *   noemail+…                 no address at all
 *   a tag containing "named" (verified+named-x@…) adds given_name and family_name (PROVIDER_NAMES)
 */
import { createHash } from 'node:crypto';
import type { AccountClaims } from 'oidc-provider';

export const PROVIDER_NAMES = { firstName: 'Léa', lastName: 'Müller-Weiß' };

/** The provider's stable, opaque id of the person who signs in as `login` (the `sub` claim). */
export function accountIdFor(login: string): string {
  return `e2e-${createHash('sha256').update(login.trim().toLowerCase()).digest('hex').slice(0, 24)}`;
}

/** The claims of the person who signed in as `login`. */
export function claimsFor(login: string): AccountClaims {
  const name = login.trim().toLowerCase();
  const [local = '', domain] = name.split('@');
  const tag = local.split('+')[1] ?? '';
  const claims: AccountClaims = { sub: accountIdFor(name) };
  if (!local.startsWith('noemail') && domain) {
    claims.email = name;
    claims.email_verified = local.startsWith('verified+');
  }
  if (tag.includes('named')) {
    claims.given_name = PROVIDER_NAMES.firstName;
    claims.family_name = PROVIDER_NAMES.lastName;
    claims.name = `${PROVIDER_NAMES.firstName} ${PROVIDER_NAMES.lastName}`;
  }
  return claims;
}
