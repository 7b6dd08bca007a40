/**
 * The auth token cookie (spec §9: max age 604800 s, Secure, SameSite=Lax; ADR 022). After a
 * successful registration — activation, or a social sign-up with a verified address — the
 * API issues a member token and the web keeps it here. The web server sends it to the API as
 * `Authorization: Bearer` (api.server.ts) and reads it (it holds the secret) to tell an
 * identified customer from an unidentified one (spec §3, §6).
 *
 * HttpOnly: no script ever reads the 7-day credential. The one browser call that needs a
 * token, graphql-ws's connection_init (spec §7.5), gets a 15-minute copy from the page that
 * opens the socket (`socketToken`).
 */
import { MEMBER_TOKEN_TTL_SECONDS, saltedCustomerIdHash, signMemberToken, verifyMemberToken } from '@velvet/tokens/signed-token';
import type { RouterContextProvider } from 'react-router';
import { requestInfoContext } from './page/context.ts';
import { readCookie } from './i18n/i18n.ts';

export const AUTH_COOKIE = 'acq_token';
/** Spec §9: 7 days, the member token's own lifetime. */
const AUTH_COOKIE_MAX_AGE = MEMBER_TOKEN_TTL_SECONDS;
/** The websocket's copy of the token lives as long as a social token: enough for the page, worthless soon after. */
const SOCKET_TOKEN_TTL_SECONDS = 900;

/** The Set-Cookie value that keeps a member token for 7 days. */
export function authCookie(token: string): string {
  return `${AUTH_COOKIE}=${token}; Max-Age=${AUTH_COOKIE_MAX_AGE}; Path=/; SameSite=Lax; Secure; HttpOnly`;
}

export interface IdentifiedCustomer {
  customerId: string;
  saltedHashedCustomerId: string;
}

async function cookieCustomer(request: Request, secret: string): Promise<string | null> {
  const verified = await verifyMemberToken(readCookie(request.headers.get('cookie'), AUTH_COOKIE), secret);
  return verified.ok ? verified.claims.customerId : null;
}

/** The customer the auth cookie identifies (spec §6), or null for an unidentified one. */
export async function identifiedCustomer(request: Request, context: Readonly<RouterContextProvider>): Promise<IdentifiedCustomer | null> {
  const { appSecret } = context.get(requestInfoContext);
  const customerId = await cookieCustomer(request, appSecret);
  return customerId ? { customerId, saltedHashedCustomerId: await saltedCustomerIdHash(customerId, appSecret) } : null;
}

/** A short-lived member token for the page's websocket (connection_init), when the visitor is identified. */
export async function socketToken(request: Request, context: Readonly<RouterContextProvider>): Promise<string | null> {
  const { appSecret } = context.get(requestInfoContext);
  const customerId = await cookieCustomer(request, appSecret);
  return customerId ? signMemberToken({ customerId }, appSecret, SOCKET_TOKEN_TTL_SECONDS) : null;
}

/**
 * A short-lived member token for the member this browser registered (its signed flow cookie's
 * memberId), once the account is active: the verify-email page asks the API for the welcome
 * voucher with it, when the link was opened on another device (ADR 058). It is sent to the API
 * only, never set as the visitor's cookie: the page shows the voucher, it does not sign anyone in.
 */
export function registrantToken(memberId: string, context: Readonly<RouterContextProvider>): Promise<string> {
  return signMemberToken({ customerId: memberId }, context.get(requestInfoContext).appSecret, SOCKET_TOKEN_TTL_SECONDS);
}
