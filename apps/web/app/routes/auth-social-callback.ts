/**
 * GET /auth/social/callback — where the provider sends the visitor back. Checks the response
 * against the transaction cookie (state, PKCE, nonce, through openid-client), reads the
 * person's address and names, issues a 15-minute social token (@velvet/tokens), keeps the
 * invitation in the registration flow cookie and continues at the social second step in the
 * visitor's language. Any failure leads back to the landing page with a notice
 * (docs/decisions/010).
 */
import { signSocialToken, SOCIAL_TOKEN_TTL_SECONDS } from '@velvet/tokens/signed-token';
import { redirect } from 'react-router';
import type { Route } from './+types/auth-social-callback';
import { localeContext, requestInfoContext } from '../lib/page/context.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import {
  failurePath,
  finishSignIn,
  logFailure,
  oidcSettings,
  prefixFor,
  readTransaction,
  redirectUri,
  transactionCookie,
} from '../lib/registration/oidc.server.ts';
import { readFlow } from '../lib/session.server.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = oidcSettings();
  if (!settings) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  const { appSecret, publicUrl } = context.get(requestInfoContext);
  const cookie = transactionCookie(context);
  const transaction = readTransaction(await cookie.parse(request.headers.get('cookie')));
  // The transaction is single-use: whatever happens next, it is gone.
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  headers.append('Set-Cookie', await cookie.serialize('', { maxAge: 0 }));

  if (!transaction) {
    logFailure('no_transaction');
    throw redirect(failurePath(context.get(localeContext).prefix, null), { headers });
  }
  const prefix = prefixFor(transaction.locale);
  // The provider answered our redirect_uri: read its parameters against that address, not
  // whatever host or scheme a proxy in front of us reports.
  const callbackUrl = new URL(redirectUri(publicUrl));
  callbackUrl.search = new URL(request.url).search;
  const result = await finishSignIn(settings, callbackUrl, transaction);
  if (!result.ok) {
    logFailure(result.reason);
    throw redirect(failurePath(prefix, transaction.invitation), { headers });
  }

  const { identity } = result;
  const token = await signSocialToken({ ...identity, provider: settings.provider }, appSecret, SOCIAL_TOKEN_TTL_SECONDS);
  const { flow, save } = await readFlow(request, context);
  headers.append(
    'Set-Cookie',
    await save({
      ...flow,
      registrationCode: transaction.invitation.code,
      validityTimestamp: transaction.invitation.validityTimestamp,
      slug: transaction.invitation.slug,
    }),
  );
  throw redirect(localizedPath(prefix, '/registration/social-registration-second-step', new URLSearchParams({ token }).toString()), { headers });
}
