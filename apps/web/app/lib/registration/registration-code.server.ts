/**
 * Checking an access code against the API for a page that shows it. What the code errors
 * mean (blocking, deny reason, tracked event, message) is `verdict()` of
 * @velvet/validation/registration-code, the one table both apps read.
 */
import { isRegistrationCodeFormat, verdict, type CodeVerdict } from '@velvet/validation/registration-code';
import { callApi, type ApiCallOptions, type ApiFailure } from '../api/api.server.ts';
import { checkRegistrationCode, type RegistrationCodeDetails } from '../api/operations.ts';

/** A message for the visitor: an id of the catalogs and its values. */
export interface Notice {
  id: string;
  values?: Record<string, string | number>;
}

type Refused = Extract<CodeVerdict, { blocking: true }>;

export type CodeCheck =
  | { status: 'valid'; inviterName: string | null; customization: string | null; details: RegistrationCodeDetails }
  | { status: 'refused'; refusal: Refused; inviterName: string | null }
  | { status: 'unavailable'; error: ApiFailure };

export async function checkCode(
  input: { code: string; validityTimestamp?: string | null; slug?: string | null; referrer?: string | null },
  options: Pick<ApiCallOptions, 'request' | 'context' | 'shared'>,
): Promise<CodeCheck> {
  // What no issued code can be (a NUL byte, other characters, too long) is an invalid code, said
  // as such without asking the API, which refuses such input as bad input (issue 20 §3).
  if (!isRegistrationCodeFormat(input.code)) {
    const invalid = verdict(['REGISTRATION_CODE_INVALID']);
    if (invalid.blocking) return { status: 'refused', refusal: invalid, inviterName: null };
  }
  const result = await callApi(
    checkRegistrationCode,
    { registrationCode: input.code, validityTimestamp: input.validityTimestamp ?? null, slug: input.slug ?? null, referrer: input.referrer ?? null },
    options,
  );
  if (!result.ok) return { status: 'unavailable', error: result.error };
  const details = result.data.registrationCodeDetails;
  const found = verdict(details.errorDetails.map((d) => d.error));
  if (found.blocking) return { status: 'refused', refusal: found, inviterName: details.invitorName };
  return { status: 'valid', inviterName: details.invitorName, customization: details.customization, details };
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
    case 'busy':
      // Nothing was done: the form keeps what the visitor typed, to send again in a moment.
      return { id: 'error.busy' };
    case 'generic':
      return { id: 'error.generic' };
    case 'forbidden':
      return { id: 'admin.forbidden' };
  }
}
