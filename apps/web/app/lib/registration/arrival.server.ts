/**
 * The arrival rule of spec §4 and §5 at every way into registration (ADR 008): an invitation
 * (`rc`) that arrives from another site brings that site's full address as its referrer, and a
 * blocked one is refused. Only the request that arrives carries it (as Referer); every later
 * step — the form, its posts, the pop-up, the social sign-in, the second steps — comes from our
 * own pages. So the arrival is kept with its code in the signed flow cookie, and each step sends
 * the referrer that came with the code it registers with to the API, which applies the blocklist.
 *
 * A refusal for the referrer leaves the deny page a short-lived proof in the same signed cookie
 * (`denial`): only then does the page keep the code and the referrer in local storage and track
 * landing_forbidden_referrer, once. A deny address typed by hand proves nothing.
 */
import { readInvitation } from '@velvet/validation/links';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import { isFreshProof, PROOF_MAX_AGE_MS, type RegistrationFlowState } from '../session.server.ts';

/** How long the deny page accepts the server's proof of a refusal. */
export const DENIAL_MAX_AGE_MS = PROOF_MAX_AGE_MS;

/**
 * Referers longer than this are cut: the flow cookie (4 KiB at most, base64) must hold it twice
 * with the rest of the flow. Most sites send only their origin anyway.
 */
const MAX_REFERRER = 512;

/** The full Referer of a request that came from another site, else null (our own pages, none, or not a web address). */
export function externalReferrer(request: Request, publicUrl: string): string | null {
  const referrer = request.headers.get('referer')?.trim();
  if (!referrer) return null;
  const from = URL.parse(referrer);
  if (!from || (from.protocol !== 'https:' && from.protocol !== 'http:')) return null;
  const own = new Set([new URL(request.url).origin, URL.parse(publicUrl)?.origin]);
  return own.has(from.origin) ? null : referrer.slice(0, MAX_REFERRER);
}

export interface InvitationReferrer {
  /** The referrer the invitation `code` arrived with, for the API's blocklist; null when none. */
  referrer: string | null;
  /** A new arrival to keep in the flow cookie (this request brought `code` from another site). */
  arrival?: NonNullable<RegistrationFlowState['arrival']>;
}

/**
 * The referrer that applies to registering with `code`: this request's external Referer when
 * the request brings `code` in its `rc` (an arrival), else the one kept from the code's arrival.
 * An arrival without a Referer (typed, from an app) keeps what the same code arrived with
 * before, so copying a refused link into a new tab does not launder it; another code's
 * arrival does not apply.
 */
export function invitationReferrer(request: Request, publicUrl: string, flow: RegistrationFlowState, code: string): InvitationReferrer {
  const normalized = normalizeRegistrationCode(code);
  const brought = readInvitation(new URL(request.url).searchParams)?.code;
  const external = brought === normalized ? externalReferrer(request, publicUrl) : null;
  if (external) return { referrer: external, arrival: { registrationCode: normalized, referrer: external } };
  return { referrer: flow.arrival?.registrationCode === normalized ? flow.arrival.referrer : null };
}

/** The flow with the refusal's proof for the deny page (and the arrival it was made for). */
export function withDenial(flow: RegistrationFlowState, registrationCode: string | null, referrer: string, now = Date.now()): RegistrationFlowState {
  return {
    ...flow,
    ...(registrationCode ? { arrival: { registrationCode: normalizeRegistrationCode(registrationCode), referrer } } : {}),
    denial: { registrationCode: registrationCode ? normalizeRegistrationCode(registrationCode) : null, referrer, at: now },
  };
}

/** The refusal the deny page may act on: a proof the server made in the last two minutes. */
export function freshDenial(flow: RegistrationFlowState, now = Date.now()): { registrationCode: string | null; referrer: string } | null {
  const denial = flow.denial;
  if (!denial || !isFreshProof(denial.at, now)) return null;
  return { registrationCode: denial.registrationCode, referrer: denial.referrer };
}
