/**
 * The web app's signed cookies: the registration flow's state (kept across steps and
 * reloads, works without JavaScript) and the admin session token.
 */
import { createCookie, createCookieSessionStorage, type RouterContextProvider } from 'react-router';
import { shownEmail } from './forms/shown-email.server.ts';
import { requestInfoContext } from './page/context.ts';
import type { RegistrationFlow, RegistrationOutcome } from '@velvet/validation/registration';

/** What the registration flow remembers between its steps (spec §3, registration state). */
export interface RegistrationFlowState {
  registrationCode?: string;
  validityTimestamp?: string | null;
  slug?: string | null;
  inviter?: string | null;
  registrationEmail?: string;
  /** What the visitor typed for gender and names, so going back or changing the address loses nothing. */
  registrationGender?: string;
  registrationFirstName?: string;
  registrationLastName?: string;
  registrationCountry?: string;
  registrationNewsLetter?: boolean;
  registrationTermsAndConditions?: boolean;
  termsPkString?: string;
  dataPolicyPkString?: string;
  memberId?: string;
  /**
   * Where the registration stands (spec §3 flow values): `leanStep2` once the lean flow's
   * first step is in, else the flow the last registration used (for the funnel events).
   */
  registrationFlow?: RegistrationFlow;
  /**
   * The invitation's arrival from another site: the code it brought and the full external
   * referrer, for the blocked-referrer rule at every later step (arrival.server.ts).
   */
  arrival?: { registrationCode: string; referrer: string };
  /** A refusal for the referrer the server just made: the deny page's proof (arrival.server.ts). */
  denial?: { registrationCode: string | null; referrer: string; at: number };
  /** An activation the server just failed: the activation error page's proof (routes/activate-account.tsx). */
  activationFailure?: { kind: 'invalid' | 'failed'; at: number };
  /** sourcePath (spec §3): the shop page the visitor came from, where "Shop now" leads back. */
  sourcePath?: string;
  /** ACCOUNT_PENDING: no email went out again, the address's resends this hour are used up. */
  resendLimitReached?: boolean;
  /** What the last registration came to: the outcome pages show only their own outcome. */
  registrationOutcome?: RegistrationOutcome | 'ACTIVATED';
  /** The address of a membership application this visit made (its confirmation page needs one). */
  membershipApplicationEmail?: string;
}

/** How long a page accepts a proof the server left in the flow that it sent the visitor there (a refusal, a failed activation). */
export const PROOF_MAX_AGE_MS = 2 * 60 * 1000;

/** Whether a proof made at `at` still holds at `now`: recent, and not ahead but by a little leeway for another instance's clock. */
export function isFreshProof(at: unknown, now = Date.now()): boolean {
  return typeof at === 'number' && now - at <= PROOF_MAX_AGE_MS && at - now <= 30_000;
}

/** A typed value kept for a form's next showing: trimmed, bounded, or nothing. */
export function keptValue(value: FormDataEntryValue | null, maxLength = 100): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().slice(0, maxLength);
  return trimmed || undefined;
}

function registrationSessions(context: Readonly<RouterContextProvider>) {
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
  const kept = session.get('flow') ?? {};
  return {
    // The address as the visitor wrote it, for the pages that echo it; the API takes either form (ADR 042).
    flow: kept.registrationEmail ? { ...kept, registrationEmail: shownEmail(kept.registrationEmail) } : kept,
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
