/**
 * Identified customers (spec §6, docs/decisions/022): after a successful registration the API
 * issues a member token (@velvet/tokens, 7 days); a client sends it back as
 * `Authorization: Bearer` — over HTTP, or in graphql-ws's connection_init headers (spec §7.5).
 * A token identifies its customer only while the member is active: a blocked member's
 * token no longer does, even before it expires.
 */
import { MEMBER_TOKEN_TTL_SECONDS, saltedCustomerIdHash, signMemberToken, verifyMemberToken } from '@velvet/tokens/signed-token';
import type { Db } from '../db/connect.ts';

export interface MemberIdentity {
  customerId: string;
  /** Spec §3: the salted hashed customer id (HMAC-SHA256 under a key derived from the secret, hex). */
  saltedHashedCustomerId: string;
}

/** The token a new member's client keeps (the web: in the auth cookie) for 7 days. */
export function issueMemberToken(secret: string, customerId: string, now: Date = new Date()): Promise<string> {
  return signMemberToken({ customerId }, secret, MEMBER_TOKEN_TTL_SECONDS, now);
}

/** The active customer a member token names; null when the token is not one, has expired, or the member is not active. */
export async function identifyMember(deps: { db: Db; secret: string; now?: Date }, token: string): Promise<MemberIdentity | null> {
  const verified = await verifyMemberToken(token, deps.secret, deps.now);
  if (!verified.ok) return null;
  const { customerId } = verified.claims;
  const member = await deps.db.selectFrom('members').select(['id', 'status']).where('id', '=', customerId).executeTakeFirst();
  if (member?.status !== 'active') return null;
  return { customerId, saltedHashedCustomerId: await saltedCustomerIdHash(customerId, deps.secret) };
}
