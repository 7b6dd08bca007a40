/**
 * GET /auth/social/start?rc=&validityTimestamp=&slug=&lang= — sends the visitor to the social
 * sign-in provider with a fresh PKCE verifier, state and nonce, and remembers them with the
 * invitation and the language in the transaction cookie (docs/decisions/010).
 * Answers 404 while social sign-up is off.
 */
import { isLocale } from '@velvet/i18n/locales';
import { redirect } from 'react-router';
import type { Route } from './+types/auth-social-start';
import { localeContext, requestInfoContext } from '../lib/context.ts';
import {
  beginSignIn,
  failurePath,
  logFailure,
  oidcSettings,
  parseInvitation,
  prefixFor,
  transactionCookie,
  type SocialTransaction,
} from '../lib/oidc.server.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = oidcSettings();
  if (!settings) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...NO_STORE } });
  const url = new URL(request.url);
  const lang = url.searchParams.get('lang');
  const locale = lang && isLocale(lang) ? lang : context.get(localeContext).locale;
  const prefix = prefixFor(locale);
  const invitation = parseInvitation(url.searchParams.get('rc')?.trim(), url.searchParams.get('validityTimestamp'), url.searchParams.get('slug'));
  if (!invitation) {
    // No usable code: the landing page asks for one (it never leaves the site).
    throw redirect(failurePath(prefix, null), { headers: NO_STORE });
  }
  const { publicUrl } = context.get(requestInfoContext);
  let started: Awaited<ReturnType<typeof beginSignIn>>;
  try {
    started = await beginSignIn(settings, { publicUrl, locale });
  } catch (error) {
    logFailure(`discovery_${error instanceof Error ? error.name : 'unknown'}`);
    throw redirect(failurePath(prefix, invitation), { headers: NO_STORE });
  }
  const transaction: SocialTransaction = {
    state: started.state,
    nonce: started.nonce,
    codeVerifier: started.codeVerifier,
    invitation,
    locale,
  };
  throw redirect(started.url.href, {
    headers: { 'Set-Cookie': await transactionCookie(context).serialize(transaction), ...NO_STORE },
  });
}
