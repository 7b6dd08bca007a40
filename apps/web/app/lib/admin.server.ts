/**
 * Admin pages sit behind a real sign-in: the API issues a session token for an admin
 * user, the web app keeps it in a host-only cookie, and every admin page asks the API
 * whether the session is still live.
 */
import { redirect, type RouterContextProvider } from 'react-router';
import { callApi } from './api.server.ts';
import { localeContext } from './context.ts';
import { localizedPath, pagePath } from './i18n.ts';
import { getAdminSession, type AdminSession } from './operations.ts';
import { adminCookie } from './session.server.ts';

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export async function adminToken({ request, context }: Args): Promise<string | undefined> {
  const value: unknown = await adminCookie(context).parse(request.headers.get('cookie'));
  return typeof value === 'string' && value ? value : undefined;
}

/** Admin pages a sign-in may return to; anything else goes to the link generator. */
const ADMIN_RETURN = /^\/(?:[a-z]{2}\/)?admin\/(?:registrationlinkgenerator|splitgenerator|funnel|security|audit|admins)$/;

export function safeAdminReturn(value: string | null | undefined, prefix: string): string {
  return value && ADMIN_RETURN.test(value) ? value : localizedPath(prefix as never, '/admin/registrationlinkgenerator');
}

/**
 * The signed-in admin, or a redirect to the sign-in page that comes back here. While the owner
 * requires a second factor this admin has not set up, every admin page leads to its set-up.
 */
export async function requireAdmin(args: Args): Promise<{ email: string; token: string; session: AdminSession }> {
  const token = await adminToken(args);
  const session = token ? await callApi(getAdminSession, {}, { ...args, token }) : null;
  const { prefix } = args.context.get(localeContext);
  if (token && session?.ok && session.data.adminSession) {
    const current = session.data.adminSession;
    const here = pagePath(new URL(args.request.url).pathname);
    if (current.secondFactorRequired && here !== '/admin/security') throw redirect(localizedPath(prefix, '/admin/security'));
    return { email: current.email, token, session: current };
  }
  const back = pagePath(new URL(args.request.url).pathname);
  throw redirect(localizedPath(prefix, '/admin/login', new URLSearchParams({ redirectTo: back }).toString()));
}
