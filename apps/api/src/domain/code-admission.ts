/**
 * Whether a registration code admits a registration (spec §8): the one set of rules, applied
 * by the code check (services/check-registration-code.ts) to the rows it reads, and again by
 * every registration that takes a place (services/registration/member-writes.ts) to the rows
 * it reads with the code's row lock, so that what changed in between — the code withdrawn,
 * the inviter blocked, the last place taken — refuses there too. Pure: the callers read the
 * rows, count the places and do what a refusal causes (counting signals, ADR 043).
 */
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import type { ExpressionBuilder } from 'kysely';
import type { Database, MemberStatus } from '../db/schema.ts';
import { isReferrerBlocked } from './referrer-blocklist.ts';
import { verifyValidityTimestamp } from './registration-link.ts';

/** A query on `registration_codes as rc`. */
type CodeQuery = ExpressionBuilder<Database & { rc: Database['registration_codes'] }, 'rc'>;

/**
 * A column of the code's inviter, read on its key by a scalar subquery rather than a join:
 * SQLite answers a code's one-row read about five times faster so (a join of the two keyed
 * look-ups cost ~40 µs a statement, the same read with subqueries ~7 µs; ADR 053). Every code
 * has its inviter (a foreign key that restricts the member's deletion): never null.
 */
export function inviterColumn<C extends 'status' | 'first_name'>(eb: CodeQuery, column: C) {
  return eb
    .selectFrom('members as inviter')
    .select(`inviter.${column}` as `inviter.${C}`)
    .whereRef('inviter.id', '=', 'rc.inviter_member_id')
    .$asScalar()
    .$notNull();
}

/** The columns the rules read, selected from `registration_codes as rc`. */
export const ADMISSION_COLUMNS = [
  'rc.code',
  'rc.disabled',
  'rc.revoked_at',
  'rc.revoked_reason',
  'rc.requires_validity_timestamp',
  'rc.expires_at',
  'rc.balance',
  'rc.landing_slug',
  (eb: CodeQuery) => inviterColumn(eb, 'status').as('inviter_status'),
] as const;

/** A code's row as ADMISSION_COLUMNS read it. */
export interface AdmissionCode {
  code: string;
  disabled: boolean;
  revoked_at: string | null;
  revoked_reason: 'revoked' | 'rotated' | null;
  requires_validity_timestamp: boolean;
  expires_at: string | null;
  balance: number;
  landing_slug: string | null;
  inviter_status: MemberStatus;
}

/** What the visitor brought with the code. */
export interface AdmissionRequest {
  validityTimestamp?: string | null;
  slug?: string | null;
  referrer?: string | null;
}

export interface AdmissionContext {
  now: Date;
  /** Secret that signs validityTimestamp values (APP_SECRET). */
  secret: string;
  referrerBlocklist: readonly string[];
  /** Every place of the code is held by a pending registration (invitation-places.ts `placesFull`). */
  placesFull: boolean;
}

export interface Admission {
  /**
   * How far the rules went: `unknown` — no such code, or a disabled one, told apart from nothing
   * else; `withdrawn` — revoked or replaced in the console (ADR 046), nothing else checked;
   * `checked` — every rule.
   */
  stage: 'unknown' | 'withdrawn' | 'checked';
  /** In a fixed order; every one but CUSTOMIZATION_MISSING blocks (isBlocking). */
  errors: RegistrationCodeError[];
  /** A genuine signed link for this code, not expired, came with the request. */
  signedLink: boolean;
}

/** The refusals of a code whose places are all taken: a pending member may still ask for their email again. */
const PLACE_ERRORS: ReadonlySet<RegistrationCodeError> = new Set([
  'REGISTRATION_CODE_NO_BALANCE_LEFT',
  'REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS',
]);

/** True for the refusals of a full code (no balance, or every place held). */
export function isPlaceError(error: RegistrationCodeError): boolean {
  return PLACE_ERRORS.has(error);
}

/** The code `code` (undefined: none was found) for `request`, by the rules of spec §8. */
export function admitRegistration(code: AdmissionCode | undefined, request: AdmissionRequest, context: AdmissionContext): Admission {
  if (!code || code.disabled) return { stage: 'unknown', errors: ['REGISTRATION_CODE_INVALID'], signedLink: false };
  if (code.revoked_at !== null) {
    return { stage: 'withdrawn', errors: [code.revoked_reason === 'rotated' ? 'REGISTRATION_CODE_REPLACED' : 'REGISTRATION_CODE_REVOKED'], signedLink: false };
  }

  const errors = new Set<RegistrationCodeError>();

  const validityTimestamp = request.validityTimestamp?.trim();
  let signedLink = false;
  if (validityTimestamp) {
    const link = verifyValidityTimestamp(code.code, validityTimestamp, context.secret, context.now);
    if (!link.ok) errors.add(link.reason === 'expired' ? 'REGISTRATION_CODE_EXPIRED' : 'REGISTRATION_CODE_INVALID');
    signedLink = link.ok;
  } else if (code.requires_validity_timestamp) {
    errors.add('REGISTRATION_TIMESTAMP_MISSING');
  }

  if (code.expires_at !== null && Date.parse(code.expires_at) <= context.now.getTime()) errors.add('REGISTRATION_CODE_EXPIRED');

  if (code.inviter_status !== 'active') errors.add('INVITER_INVALID');

  // Pending registrations hold places until their activation link expires (invitation-places.ts).
  if (code.balance <= 0) errors.add('REGISTRATION_CODE_NO_BALANCE_LEFT');
  else if (context.placesFull) errors.add('REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS');

  const slug = request.slug?.trim().toLowerCase();
  if (slug && slug !== code.landing_slug?.toLowerCase()) errors.add('CUSTOMIZATION_MISSING');

  if (isReferrerBlocked(request.referrer, context.referrerBlocklist)) errors.add('REFERER_INVALID');

  return { stage: 'checked', errors: [...errors], signedLink };
}
