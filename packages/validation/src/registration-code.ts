/**
 * Format rules of registration (invitation) codes, shared by the web form and the API.
 * Codes are compared trimmed and case-insensitively: they are stored upper-case.
 * Form errors are message ids of @velvet/i18n so every language gets its own text.
 */
import type { TrackedEventName } from './funnel.ts';

/** Longer input is rejected without a database look-up. */
export const REGISTRATION_CODE_MAX_LENGTH = 64;
const REGISTRATION_CODE_MIN_LENGTH = 4;

/** The format of codes the club issues (after normalising): letters, digits and hyphens. */
export const REGISTRATION_CODE_PATTERN = new RegExp(`^[A-Z0-9-]{${REGISTRATION_CODE_MIN_LENGTH},${REGISTRATION_CODE_MAX_LENGTH}}$`);

/** Trims and upper-cases user input: ` welcome2026 ` -> `WELCOME2026`. */
export function normalizeRegistrationCode(input: string): string {
  return input.trim().toUpperCase();
}

/** True when `input`, once normalised, has the format of an issued code. */
export function isRegistrationCodeFormat(input: string): boolean {
  return REGISTRATION_CODE_PATTERN.test(normalizeRegistrationCode(input));
}

/**
 * Why a registration code cannot be used (spec §8), as both apps name it: the GraphQL enum
 * RegistrationCodeError is built from this table, the API's checks report these values and the
 * web turns them into a page with `verdict()`. Each refusal says, once:
 * - `reason`: the deny page's `?reason=` (and the landing page's refusal),
 * - `event`: the funnel event of spec §8 tracked where the visitor meets it (null: none),
 * - `messageId`: what a visitor who opened a link reads; `typedMessageId` when the code was
 *   typed by hand, `anonymousMessageId` when the inviter's name is unknown.
 * Only CUSTOMIZATION_MISSING (null) is informational: every other error blocks registration.
 * The order is the order of what the visitor most needs to hear: the first blocking error of a
 * check decides.
 */
export type DenyReason = 'invalid' | 'invalid-link' | 'expired' | 'no-balance' | 'referrer' | 'revoked' | 'replaced';

export interface Refusal {
  reason: DenyReason;
  event: RefusalEvent | null;
  messageId: string;
  typedMessageId?: string;
  anonymousMessageId?: string;
}

/** The tracked events a refused invitation can cause (packages/validation/src/funnel.ts). */
type RefusalEvent = Extract<
  TrackedEventName,
  'error_registration_code_expired' | 'error_registration_code_no_balance' | 'error_registration_timestamp_missing'
>;

const INVALID: Refusal = { reason: 'invalid', event: null, messageId: 'invitation.invalid', typedMessageId: 'deny.invalid' };
const NO_BALANCE: Refusal = {
  reason: 'no-balance',
  event: 'error_registration_code_no_balance',
  messageId: 'invitation.noBalance',
  anonymousMessageId: 'invitation.noBalanceAnonymous',
};

export const REGISTRATION_CODE_ERROR_TABLE = {
  REGISTRATION_CODE_INVALID: {
    description: 'Blocking: the code is unknown or disabled, or the validityTimestamp is not genuine.',
    refusal: INVALID,
  },
  REGISTRATION_CODE_REVOKED: {
    description: 'Blocking: the club withdrew the code (admin console, ADR 046).',
    refusal: { reason: 'revoked', event: null, messageId: 'invitation.revoked' },
  },
  REGISTRATION_CODE_REPLACED: {
    description: 'Blocking: the code was replaced by a new one (rotated in the admin console, ADR 046); the inviter has the new link.',
    refusal: { reason: 'replaced', event: null, messageId: 'invitation.replaced', anonymousMessageId: 'invitation.replacedAnonymous' },
  },
  INVITER_INVALID: { description: 'Blocking: the inviting member is not active.', refusal: INVALID },
  REFERER_INVALID: {
    description: 'Blocking: the visitor came from a forbidden referrer (coupon, forum, search, social, mail or translation site).',
    refusal: { reason: 'referrer', event: null, messageId: 'deny.referrer' },
  },
  REGISTRATION_TIMESTAMP_MISSING: {
    description: 'Blocking: the code may only be used through a generated registration link.',
    refusal: { reason: 'invalid-link', event: 'error_registration_timestamp_missing', messageId: 'invitation.invalidLink' },
  },
  REGISTRATION_CODE_EXPIRED: {
    description: 'Blocking: the code or the registration link has expired.',
    refusal: { reason: 'expired', event: 'error_registration_code_expired', messageId: 'invitation.expired', typedMessageId: 'deny.expired' },
  },
  REGISTRATION_CODE_NO_BALANCE_LEFT: { description: 'Blocking: the inviter has no invitations left.', refusal: NO_BALANCE },
  REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS: {
    description: 'Blocking: the invitations left are all taken by registrations that still await activation.',
    refusal: NO_BALANCE,
  },
  CUSTOMIZATION_MISSING: {
    description: 'Informational, not blocking: the code has no landing texts for the requested slug; show the default texts.',
    refusal: null,
  },
} as const satisfies Record<string, { description: string; refusal: Refusal | null }>;

export type RegistrationCodeError = keyof typeof REGISTRATION_CODE_ERROR_TABLE;
export const REGISTRATION_CODE_ERRORS = Object.keys(REGISTRATION_CODE_ERROR_TABLE) as RegistrationCodeError[];

/** True for every error that makes the code unusable (all but CUSTOMIZATION_MISSING). */
export function isBlocking(error: RegistrationCodeError): boolean {
  return REGISTRATION_CODE_ERROR_TABLE[error].refusal !== null;
}

export type CodeVerdict = { blocking: false } | ({ blocking: true; error: RegistrationCodeError } & Refusal);

/**
 * What a code check's errors (or a refused registration's) mean: usable, or refused with the
 * deny reason, the tracked event and the message of the error the visitor most needs to hear.
 */
export function verdict(errors: readonly RegistrationCodeError[]): CodeVerdict {
  const present = new Set(errors);
  for (const error of REGISTRATION_CODE_ERRORS) {
    const { refusal } = REGISTRATION_CODE_ERROR_TABLE[error];
    if (refusal && present.has(error)) return { blocking: true, error, ...refusal };
  }
  return { blocking: false };
}

/**
 * The message a refusal shows: `via` says how the code came — in a link the visitor opened
 * ("this registration link has expired") or typed by hand ("your invitation has expired").
 */
export function refusalMessage(
  refusal: Refusal,
  via: 'link' | 'typed',
  inviterName: string | null = null,
): { id: string; values?: Record<string, string> } {
  if (refusal.anonymousMessageId) {
    return inviterName ? { id: refusal.messageId, values: { inviterName } } : { id: refusal.anonymousMessageId };
  }
  return { id: via === 'typed' ? (refusal.typedMessageId ?? refusal.messageId) : refusal.messageId };
}

/** The refusal behind a deny page's `?reason=`, for its message and event (unknown: invalid). */
export function refusalForReason(reason: string | null | undefined): Refusal {
  for (const error of REGISTRATION_CODE_ERRORS) {
    const refusal: Refusal | null = REGISTRATION_CODE_ERROR_TABLE[error].refusal;
    if (refusal && refusal.reason === reason) return refusal;
  }
  return INVALID;
}
