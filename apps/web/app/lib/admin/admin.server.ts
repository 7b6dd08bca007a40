/**
 * Admin pages sit behind a real sign-in: the API issues a session token for an admin
 * user, the web app keeps it in a host-only cookie, and every admin page asks the API
 * whether the session is still live.
 */
import { redirect, type RouterContextProvider } from 'react-router';
import { callApi } from '../api/api.server.ts';
import { localeContext } from '../page/context.ts';
import { localizedPath, pagePath } from '../i18n/i18n.ts';
import { getAdminSession, type AdminSession } from '../api/operations.ts';
import { adminCookie } from '../session.server.ts';

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export async function adminToken({ request, context }: Args): Promise<string | undefined> {
  const value: unknown = await adminCookie(context).parse(request.headers.get('cookie'));
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * Admin pages a sign-in may return to; anything else goes to the admin's first page: the link
 * generator (spec §2) for the roles that make links, the invitations for everyone else.
 */
const ADMIN_RETURN = /^\/(?:[a-z]{2}\/)?admin\/(?:registrationlinkgenerator|splitgenerator|funnel|security|audit|admins|members|privacy|waitlist|outbox|features|webhooks|codes|codes\/[A-Z0-9-]{4,64})$/;

export function safeAdminReturn(value: string | null | undefined, prefix: string, permissions: readonly string[]): string {
  if (value && ADMIN_RETURN.test(value)) return value;
  return localizedPath(prefix as never, permissions.includes('codes.manage') ? '/admin/registrationlinkgenerator' : '/admin/codes');
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
