/**
 * The site's link shapes and query contract, built and read by both apps: an invitation
 * travels as `?rc=<CODE>[&validityTimestamp=<signed expiry>][&slug=<campaign>]`, and every page
 * lives under a language prefix (`/de/…`) except English, which has none. The API's emails and
 * admin links and the web's redirects use these; adding a link parameter is a change here.
 */
import { normalizeRegistrationCode } from './registration-code.ts';

/** The query parameters of an invitation. */
export const INVITATION_PARAMS = { code: 'rc', validityTimestamp: 'validityTimestamp', slug: 'slug' } as const;

/** The language without a prefix. */
export const UNPREFIXED_LANGUAGE = 'en';

export interface InvitationParams {
  code: string;
  validityTimestamp?: string | null;
  slug?: string | null;
}

/** The invitation a query carries (code trimmed and upper-cased), or null without a code. */
export function readInvitation(params: URLSearchParams): { code: string; validityTimestamp: string | null; slug: string | null } | null {
  const code = normalizeRegistrationCode(params.get(INVITATION_PARAMS.code) ?? '');
  if (!code) return null;
  return { code, validityTimestamp: params.get(INVITATION_PARAMS.validityTimestamp), slug: params.get(INVITATION_PARAMS.slug) };
}

/** `rc=CODE&validityTimestamp=…&slug=…` (empty parts left out), then `extra`. */
export function invitationSearch(invitation: InvitationParams, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ [INVITATION_PARAMS.code]: invitation.code });
  if (invitation.validityTimestamp) params.set(INVITATION_PARAMS.validityTimestamp, invitation.validityTimestamp);
  if (invitation.slug) params.set(INVITATION_PARAMS.slug, invitation.slug);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}

/** `/de` for German, `` for English (and for a language the caller did not check: pass a valid one). */
function languagePrefix(language: string): string {
  return language === UNPREFIXED_LANGUAGE ? '' : `/${language}`;
}

/** An absolute address on the site: `${publicUrl}${prefix}${path}?${search}`. */
export function siteUrl(publicUrl: string, language: string, path: string, search: string | Record<string, string> | URLSearchParams = ''): string {
  const url = new URL(`${publicUrl.replace(/\/$/, '')}${languagePrefix(language)}${path.startsWith('/') ? path : `/${path}`}`);
  url.search = new URLSearchParams(search).toString();
  return url.toString();
}
