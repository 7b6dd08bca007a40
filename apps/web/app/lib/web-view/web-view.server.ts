/** Remembers a safe `redirectUrl` for the rest of the visit, so later pages know the web view. */
import type { RouterContextProvider } from 'react-router';
import { readCookie } from '../i18n/i18n.ts';
import { requestInfoContext } from '../page/context.ts';
import { appReturnUrl, isWebViewRedirect, parseRedirectUrl, type RedirectPolicy } from './web-view.ts';

const COOKIE = 'acq_webview';

function policyFor(context: Readonly<RouterContextProvider>): RedirectPolicy {
  const info = context.get(requestInfoContext);
  return { appSchemePrefix: info.appSchemePrefix, ownOrigins: [new URL(info.publicUrl).origin] };
}

export function webViewFromRequest(request: Request, context: Readonly<RouterContextProvider>) {
  const policy = policyFor(context);
  // Secure on HTTPS like every other cookie of the site (ADR 028).
  const secure = context.get(requestInfoContext).secureCookies ? '; Secure' : '';
  const fromQuery = new URL(request.url).searchParams.get('redirectUrl');
  const value = fromQuery ?? readCookie(request.headers.get('cookie'), COOKIE);
  const parsed = parseRedirectUrl(value, policy, (message, error) => console.warn(message, error instanceof Error ? error.message : error));
  return {
    active: isWebViewRedirect(parsed, policy),
    returnUrl: appReturnUrl(parsed, policy),
    /** A Set-Cookie value when the query brought a new, safe redirectUrl. */
    cookie: fromQuery && parsed ? `${COOKIE}=${encodeURIComponent(parsed.url)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=86400${secure}` : null,
  };
}
