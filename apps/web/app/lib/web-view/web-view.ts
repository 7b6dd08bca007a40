/**
 * Running inside the mobile app's web view (spec §4): the flag is true when the app's
 * native bridge objects exist, or when `redirectUrl` decodes to an address whose
 * `redirect_uri` starts with the app's scheme (whatever host the address names: the app's
 * login service, say). The end of registration hands back to the app through that
 * `redirect_uri` or an app-scheme `redirectUrl` only; any other address is kept only when it
 * is our own origin, so `redirectUrl` is never an open redirect.
 */

export interface RedirectPolicy {
  /** e.g. `velvetrope://` */
  appSchemePrefix: string;
  /** Origins of our own sites. */
  ownOrigins: string[];
}

/** The allowed hand-back address inside `redirectUrl`, or null (unsafe, or not for the app). */
export function parseRedirectUrl(value: string | null | undefined, policy: RedirectPolicy, log: (message: string, error: unknown) => void = () => {}): {
  url: string;
  appRedirectUri: string | null;
} | null {
  if (!value) return null;
  let decoded = value;
  let url: URL;
  try {
    // Apps send it encoded once or twice; decode until it parses as an absolute URL.
    for (let i = 0; i < 2 && !/^[a-z][a-z0-9+.-]*:/i.test(decoded); i++) decoded = decodeURIComponent(decoded);
    url = new URL(decoded);
  } catch (error) {
    log('Error parsing redirectUrl:', error);
    return null;
  }
  const redirectUri = url.searchParams.get('redirect_uri');
  const appRedirectUri = redirectUri?.startsWith(policy.appSchemePrefix) ? redirectUri : null;
  const isApp = decoded.startsWith(policy.appSchemePrefix);
  const isWeb = url.protocol === 'https:' || url.protocol === 'http:';
  const isOwn = isWeb && policy.ownOrigins.includes(url.origin);
  // Another host is accepted only for the app's redirect_uri it carries (never visited itself).
  if (!isApp && !isOwn && !(isWeb && appRedirectUri)) return null;
  return { url: decoded, appRedirectUri };
}

/** Spec §4: a redirect_uri for the app, or the app's own scheme as the target, means the web view. */
export function isWebViewRedirect(parsed: ReturnType<typeof parseRedirectUrl>, policy: RedirectPolicy): boolean {
  return Boolean(parsed && (parsed.appRedirectUri || parsed.url.startsWith(policy.appSchemePrefix)));
}

/** The app's native bridges (iOS WKWebView message handler, Android JavaScript interface). */
export function hasNativeBridge(win: Window & { webkit?: { messageHandlers?: Record<string, unknown> }; VelvetAppBridge?: unknown }): boolean {
  return Boolean(win.VelvetAppBridge || win.webkit?.messageHandlers?.velvetApp);
}

/** Where "back to the app" leads: the app's redirect_uri, else the scheme address itself. */
export function appReturnUrl(parsed: ReturnType<typeof parseRedirectUrl>, policy: RedirectPolicy): string | null {
  if (!parsed) return null;
  if (parsed.appRedirectUri) return parsed.appRedirectUri;
  return parsed.url.startsWith(policy.appSchemePrefix) ? parsed.url : null;
}
