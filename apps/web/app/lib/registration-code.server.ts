/**
 * Checking an access code against the API and turning the answer into what the landing
 * page shows. Which errors block registration is decided here, once.
 */
import type { RouterContextProvider } from 'react-router';
import { callApi, type ApiFailure } from './api.server.ts';
import { checkRegistrationCode, type RegistrationCodeDetails, type RegistrationCodeError } from './operations.ts';

/** A message for the visitor: an id of the catalogs and its values. */
export interface Notice {
  id: string;
  values?: Record<string, string | number>;
}

export type CodeVerdict =
  | { status: 'valid'; invitorName: string | null; customization: string | null; details: RegistrationCodeDetails }
  | { status: 'invalid' | 'invalid-link' | 'expired' | 'referrer'; invitorName: string | null }
  | { status: 'no-balance'; invitorName: string | null }
  | { status: 'unavailable'; error: ApiFailure };

/** In order of what the visitor most needs to hear. */
const BLOCKING: [RegistrationCodeError, Exclude<CodeVerdict['status'], 'valid' | 'unavailable'>][] = [
  ['REGISTRATION_CODE_INVALID', 'invalid'],
  ['INVITER_INVALID', 'invalid'],
  ['REFERER_INVALID', 'referrer'],
  ['REGISTRATION_TIMESTAMP_MISSING', 'invalid-link'],
  ['REGISTRATION_CODE_EXPIRED', 'expired'],
  ['REGISTRATION_CODE_NO_BALANCE_LEFT', 'no-balance'],
  ['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS', 'no-balance'],
];

export function verdictFor(details: RegistrationCodeDetails): CodeVerdict {
  const errors = new Set(details.errorDetails.map((d) => d.error));
  for (const [error, status] of BLOCKING) {
    if (errors.has(error)) return { status, invitorName: details.invitorName };
  }
  return { status: 'valid', invitorName: details.invitorName, customization: details.customization, details };
}

export async function checkCode(
  input: { code: string; validityTimestamp?: string | null; slug?: string | null; referrer?: string | null },
  options: { request: Request; context: Readonly<RouterContextProvider> },
): Promise<CodeVerdict> {
  const result = await callApi(
    checkRegistrationCode,
    { registrationCode: input.code, validityTimestamp: input.validityTimestamp ?? null, slug: input.slug ?? null, referrer: input.referrer ?? null },
    options,
  );
  if (!result.ok) return { status: 'unavailable', error: result.error };
  return verdictFor(result.data.registrationCodeDetails);
}

/**
 * The message id the landing page shows for a verdict that is not "valid". `via` says how the
 * code came: in a link the visitor opened ("this registration link has expired"), or typed
 * by hand ("your invitation has expired").
 */
export function verdictMessage(verdict: Exclude<CodeVerdict, { status: 'valid' }>, via: 'link' | 'invitation'): Notice {
  switch (verdict.status) {
    case 'invalid':
      return { id: 'invitation.invalid' };
    case 'referrer':
      return { id: 'deny.referrer' };
    case 'invalid-link':
      return { id: 'invitation.invalidLink' };
    case 'expired':
      return { id: via === 'link' ? 'invitation.expired' : 'deny.expired' };
    case 'no-balance':
      return verdict.invitorName
        ? { id: 'invitation.noBalance', values: { invitorName: verdict.invitorName } }
        : { id: 'invitation.noBalanceAnonymous' };
    case 'unavailable':
      return apiFailureMessage(verdict.error);
  }
}

/**
 * What a visitor reads when the web server's call to the API failed. The web server could
 * not reach the API: that is the club's outage (spec §8 generic: "a technical issue…"),
 * never the visitor's connection — "check your connection" is for the browser's own
 * requests failing (components/error-content.tsx).
 */
export function apiFailureMessage(error: ApiFailure): Notice {
  switch (error.kind) {
    case 'connection':
      return { id: 'error.generic' };
    case 'timeout':
      return { id: 'error.timeout' };
    case 'rate-limited':
      return { id: 'error.rateLimited', values: { seconds: error.retryAfterSeconds } };
    case 'generic':
      return { id: 'error.generic' };
  }
}
