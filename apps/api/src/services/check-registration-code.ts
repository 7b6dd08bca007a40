/**
 * The code check behind Query.registrationCodeDetails: is this invitation usable, who
 * sent it, and which countries (with their consent documents) can the visitor pick.
 */
import type { Customization } from '@velvet/validation/customization';
import { isBlocking, isRegistrationCodeFormat, normalizeRegistrationCode } from '@velvet/validation/registration-code';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import type { ExpressionBuilder } from 'kysely';
import type { CountryOption } from './list-country-options.ts';
import { legalRevision, listCountryOptions } from './list-country-options.ts';
import { ADMISSION_COLUMNS, admitRegistration, inviterColumn } from '../domain/code-admission.ts';
import { placesFull } from '../domain/invitation-places.ts';
import type { CodeWatch } from '../domain/code-quarantine.ts';
import { isLinkMadeSince } from '../domain/registration-link.ts';

export interface CheckRegistrationCodeInput {
  registrationCode: string;
  validityTimestamp?: string | null;
  slug?: string | null;
  referrer?: string | null;
}

export interface RegistrationCodeCheck {
  /** In a fixed order; see REGISTRATION_CODE_ERRORS for which are blocking. */
  errors: RegistrationCodeError[];
  inviterName: string | null;
  countryOptions: CountryOption[];
  customization: Customization | null;
  /** A personal code whose signed link came with the check (issue 12 §2: no proof of work asked). */
  signedSingleUseLink: boolean;
  /** The code's row, when it exists (its signals are counted against it, ADR 043). */
  codeId: string | null;
  /** When the code was quarantined as leaked (ADR 043); null when it is not. */
  quarantinedAt: string | null;
  /**
   * A new registration through this check would be held for review: the code is quarantined and
   * the link is not one its inviter made since (ADR 043). What the landing page says (ADR 054).
   */
  heldForReview: boolean;
}

export interface CheckRegistrationCodeDeps {
  db: Db;
  /** Secret that signs validityTimestamp values (APP_SECRET). */
  secret: string;
  referrerBlocklist: readonly string[];
  now?: Date;
  /** Counts what the check sees against the code: a blocked referrer, a near miss (ADR 043). */
  codeWatch?: CodeWatch;
}

/**
 * The code with its inviter's name and state, and the legal documents' revision: every landing
 * page with ?rc= asks. The select part is the same for every code, so it is built once per
 * database handle (Kysely's builders are immutable: each look-up adds its own `where`); parsing
 * those columns anew was a sixteenth of an invitation check's CPU (issue 19).
 */
const codeQueries = new WeakMap<Db, ReturnType<typeof codeQuery>>();

function codeQuery(db: Db) {
  return db
    .selectFrom('registration_codes as rc')
    .select([
      ...ADMISSION_COLUMNS,
      'rc.id',
      'rc.pending_members',
      'rc.customization',
      'rc.single_use',
      'rc.quarantined_at',
      (eb) => inviterColumn(eb, 'first_name').as('inviter_first_name'),
      (eb) => legalRevision(eb as unknown as ExpressionBuilder<Database, never>).as('legal_revision'),
    ]);
}

function findCode(db: Db, code: string) {
  let query = codeQueries.get(db);
  if (!query) {
    query = codeQuery(db);
    codeQueries.set(db, query);
  }
  return query.where('rc.code', '=', code).executeTakeFirst();
}

const INVALID: RegistrationCodeCheck = {
  errors: ['REGISTRATION_CODE_INVALID'],
  inviterName: null,
  countryOptions: [],
  customization: null,
  signedSingleUseLink: false,
  codeId: null,
  quarantinedAt: null,
  heldForReview: false,
};

export async function checkRegistrationCode(
  deps: CheckRegistrationCodeDeps,
  input: CheckRegistrationCodeInput,
): Promise<RegistrationCodeCheck> {
  const now = deps.now ?? new Date();
  const code = normalizeRegistrationCode(input.registrationCode);
  // Input no issued code can have (too long, other characters, U+0000) is invalid without a look-up.
  if (!isRegistrationCodeFormat(code)) return INVALID;

  const row = await findCode(deps.db, code);
  // A code one character away from an issued one: someone may be trying variants of it.
  if (!row) await deps.codeWatch?.observeUnknown(code);
  const { stage, errors, signedLink } = admitRegistration(row, input, {
    now,
    secret: deps.secret,
    referrerBlocklist: deps.referrerBlocklist,
    placesFull: row !== undefined && (await placesFull(deps.db, row, now)),
  });
  if (!row || stage === 'unknown') return INVALID;
  const inviterName = row.inviter_status === 'active' ? row.inviter_first_name : null;
  // Withdrawn or replaced in the console (ADR 046): refused with its own message, nothing else checked.
  if (stage === 'withdrawn') return { ...INVALID, errors, inviterName, codeId: row.id };

  if (errors.includes('REFERER_INVALID')) await deps.codeWatch?.observe(row.id, 'blocked_referrer');

  const usable = !errors.some(isBlocking);
  return {
    errors,
    inviterName,
    countryOptions: usable ? await listCountryOptions(deps.db, now, Number(row.legal_revision ?? -1)) : [],
    customization: row.customization,
    signedSingleUseLink: signedLink && row.single_use,
    codeId: row.id,
    quarantinedAt: row.quarantined_at,
    heldForReview: row.quarantined_at !== null && !isLinkMadeSince(code, input.validityTimestamp, new Date(row.quarantined_at), deps.secret, now),
  };
}
