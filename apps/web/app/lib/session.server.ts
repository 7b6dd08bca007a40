/**
 * The web app's signed cookies: the registration flow's state (kept across steps and
 * reloads, works without JavaScript) and the admin session token.
 */
import { createCookie, createCookieSessionStorage, type RouterContextProvider } from 'react-router';
import { requestInfoContext } from './context.ts';

/** What the registration flow remembers between its steps (spec §3, registration state). */
export interface RegistrationFlowState {
  registrationCode?: string;
  validityTimestamp?: string | null;
  slug?: string | null;
  inviter?: string | null;
  registrationEmail?: string;
  registrationCountry?: string;
  registrationNewsLetter?: boolean;
  registrationTermsAndConditions?: boolean;
  termsPkString?: string;
  dataPolicyPkString?: string;
  registrationId?: string;
  /** Which flow the last registration used, for the funnel events. */
  registrationFlow?: 'default' | 'lean' | 'social';
}

export function registrationSessions(context: Readonly<RouterContextProvider>) {
  const { appSecret, secureCookies } = context.get(requestInfoContext);
  return createCookieSessionStorage<{ flow: RegistrationFlowState }>({
    cookie: {
      name: 'acq_registration',
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: secureCookies,
      secrets: [appSecret],
      maxAge: 60 * 60 * 24,
    },
  });
}

export async function readFlow(request: Request, context: Readonly<RouterContextProvider>) {
  const storage = registrationSessions(context);
  const session = await storage.getSession(request.headers.get('cookie'));
  return {
    flow: session.get('flow') ?? {},
    /** Saves `next` and answers the Set-Cookie header value. */
    save: (next: RegistrationFlowState) => {
      session.set('flow', next);
      return storage.commitSession(session);
    },
  };
}

/**
 * The admin session: the API's signed token in a host-only, HttpOnly, Secure cookie. The
 * API checks the token and that its session is live on every admin request.
 */
export function adminCookie(context: Readonly<RouterContextProvider>) {
  const { appSecret } = context.get(requestInfoContext);
  return createCookie('__Host-acq_admin', {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    path: '/',
    secrets: [appSecret],
    maxAge: 8 * 60 * 60,
  });
}
