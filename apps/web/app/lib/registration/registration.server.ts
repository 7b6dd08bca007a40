/**
 * The registration as the web app sees it: the invitation a visitor registers with (from the URL
 * or the flow cookie), the referrer it arrived with, and the deny page for a refusal. A
 * registration form's POST is register.server.ts's.
 */
import { INVITATION_PARAMS, invitationSearch, readInvitation } from '@velvet/validation/links';
import { verdict, type DenyReason, type RegistrationCodeError } from '@velvet/validation/registration-code';
import { redirect, type RouterContextProvider } from 'react-router';
import { invitationReferrer, withDenial } from './arrival.server.ts';
import { localeContext, requestInfoContext } from '../page/context.ts';
import { localizedPath } from '../i18n/i18n.ts';
import { readFlow, type RegistrationFlowState } from '../session.server.ts';

export interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export interface Invitation {
  code: string;
  validityTimestamp: string | null;
  slug: string | null;
}

/** The invitation the visitor is registering with: URL first, then the flow cookie. */
export function invitationFrom(url: URL, flow: RegistrationFlowState): Invitation | null {
  const fromUrl = readInvitation(url.searchParams);
  if (fromUrl) return fromUrl;
  // A URL with an empty `rc` keeps nothing of the flow's link but its code.
  const emptyInUrl = url.searchParams.has(INVITATION_PARAMS.code);
  if (!flow.registrationCode) return null;
  return {
    code: flow.registrationCode,
    validityTimestamp: (emptyInUrl ? url.searchParams.get(INVITATION_PARAMS.validityTimestamp) : flow.validityTimestamp) ?? null,
    slug: (emptyInUrl ? url.searchParams.get(INVITATION_PARAMS.slug) : flow.slug) ?? null,
  };
}

/**
 * The outcome pages (verify email, already a member, pending) speak of this visitor's own
 * registration: without one that came to `outcome`, the visitor goes to the start page
 * instead of reading that an email was sent.
 */
export async function requireOutcome(
  { request, context }: Args,
  ...outcomes: NonNullable<RegistrationFlowState['registrationOutcome']>[]
): Promise<RegistrationFlowState> {
  const { flow } = await readFlow(request, context);
  if (!flow.registrationOutcome || !outcomes.includes(flow.registrationOutcome)) {
    throw redirect(localizedPath(context.get(localeContext).prefix, '/'));
  }
  return flow;
}

/** Query string that carries an invitation to the next page. */
export function invitationQuery(invitation: Invitation, extra: Record<string, string> = {}): string {
  return invitationSearch(invitation, extra);
}

/** The deny page for a refusal (`token`: a waiting-list link is missing or broken; `sign-in`: the social sign-up's proof is). */
export function denyPath(prefix: string, reason: DenyReason | 'token' | 'sign-in', invitation?: Invitation): string {
  const params = new URLSearchParams({ reason });
  if (invitation) params.set(INVITATION_PARAMS.code, invitation.code);
  return localizedPath(prefix as never, '/registration/deny', params.toString());
}

/**
 * The redirect to the deny page for a refusal. A refusal for the referrer also leaves the deny
 * page the server's proof (arrival.server.ts) in the flow cookie, so only a refusal we made
 * keeps the invitation aside and is tracked.
 */
export async function deny(
  { request, context }: Args,
  reason: DenyReason,
  invitation: Invitation | undefined,
  referrer: string | null,
  options: { prefix?: string; headers?: Headers; keep?: Partial<RegistrationFlowState> } = {},
): Promise<Response> {
  const prefix = options.prefix ?? context.get(localeContext).prefix;
  const headers = new Headers(options.headers);
  const denial = reason === 'referrer' && referrer;
  if (denial || options.keep) {
    // `keep`: what the refused visitor typed (their address), so the way on starts with it (ADR 043).
    const { flow, save } = await readFlow(request, context);
    const kept = { ...flow, ...options.keep };
    headers.append('Set-Cookie', await save(denial ? withDenial(kept, invitation?.code ?? null, referrer) : kept));
  }
  return redirect(denyPath(prefix, reason, invitation), { headers });
}

/**
 * A blocking refusal of the code (the API checks it with every registration): the deny page,
 * which offers the waiting list and membership interest with the address the visitor gave.
 */
export async function denyRefusedCode(
  args: Args,
  codeErrors: readonly RegistrationCodeError[],
  invitation: Invitation,
  referrer: string | null,
  email: string,
) {
  const refused = verdict(codeErrors);
  if (refused.blocking) throw await deny(args, refused.reason, invitation, referrer, { keep: { registrationEmail: email } });
}

/** The referrer the visitor's invitation arrived with (arrival.server.ts). */
export function referrerOf({ request, context }: Args, flow: RegistrationFlowState, invitation: Invitation) {
  return invitationReferrer(request, context.get(requestInfoContext).publicUrl, flow, invitation.code);
}
