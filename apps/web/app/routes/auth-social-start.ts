/**
 * GET /auth/social/start?rc=&validityTimestamp=&slug=&lang= — sends the visitor to the social
 * sign-in provider with a fresh PKCE verifier, state and nonce, and remembers them with the
 * invitation and the language in the transaction cookie (docs/decisions/010).
 * Answers 404 while social sign-up is off.
 */
import { isLocale } from '@velvet/i18n/locales';
import { INVITATION_PARAMS } from '@velvet/validation/links';
import { redirect } from 'react-router';
import type { Route } from './+types/auth-social-start';
import { localeContext, requestInfoContext } from '../lib/page/context.ts';
import {
  beginSignIn,
  failurePath,
  logFailure,
  oidcSettings,
  parseInvitation,
  prefixFor,
  transactionCookie,
  type SocialTransaction,
} from '../lib/registration/oidc.server.ts';
import { checkCode } from '../lib/registration/registration-code.server.ts';
import { deny, referrerOf } from '../lib/registration/registration.server.ts';
import { readFlow } from '../lib/session.server.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const settings = oidcSettings();
  if (!settings) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...NO_STORE } });
  const url = new URL(request.url);
  const lang = url.searchParams.get('lang');
  const locale = lang && isLocale(lang) ? lang : context.get(localeContext).locale;
  const prefix = prefixFor(locale);
  const invitation = parseInvitation(
    url.searchParams.get(INVITATION_PARAMS.code)?.trim(),
    url.searchParams.get(INVITATION_PARAMS.validityTimestamp),
    url.searchParams.get(INVITATION_PARAMS.slug),
  );
  if (!invitation) {
    // No usable code: the landing page asks for one (it never leaves the site).
    throw redirect(failurePath(prefix, null), { headers: NO_STORE });
  }
  // A way into registration like any other (spec §4 arrival rule): a refused invitation, or one
  // that arrived from a blocked site, never reaches the provider. Unreachable API: the second
  // step checks again.
  const { flow, save } = await readFlow(request, context);
  const { referrer, arrival } = referrerOf(args, flow, invitation);
  const check = await checkCode({ ...invitation, referrer }, { request, context });
  if (check.status === 'refused') {
    throw await deny(args, check.refusal.reason, invitation, referrer, { prefix, headers: new Headers(NO_STORE) });
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
  const headers = new Headers(NO_STORE);
  headers.append('Set-Cookie', await transactionCookie(context).serialize(transaction));
  if (arrival) headers.append('Set-Cookie', await save({ ...flow, arrival }));
  throw redirect(started.url.href, { headers });
}
