/**
 * The shared vocabulary of the registration path (register-member.ts and its steps in this
 * folder): its dependencies, its result, the answers it gives, and the fields it validated.
 */
import { randomUUID } from 'node:crypto';
import type { RegistrationOutcome } from '@velvet/validation/registration';
import type { Gender, ShoppingPreference } from '@velvet/validation/registration-options';
import type { RegistrationCodeError } from '@velvet/validation/registration-code';
import type { Locale } from '@velvet/i18n/locales';
import type { Db } from '../../db/connect.ts';
import type { Logger } from '../../logger.ts';
import type { OutboxSignal } from '../../mail/outbox-signal.ts';
import type { IssuedWelcomeVoucher } from '../../domain/member-activation.ts';
import type { RegistrationEvents } from '../../domain/registration-events.ts';
import type { CodeWatch } from '../../domain/code-quarantine.ts';
import type { RateLimiter } from '../../rate-limit.ts';
import type { MailDomainChecker } from '../../domain/mail-domains.ts';
import type { SignUpGate } from '../../domain/sign-up-gate.ts';

/** The outcomes of the shared path: ACTIVATED only when the address is vouched for. */
export type RegistrationRunOutcome = RegistrationOutcome | 'ACTIVATED';

/** Field names reported in FieldError.field. */
export type RegistrationField = 'email' | 'gender' | 'firstName' | 'lastName' | 'country' | 'termsAccepted' | 'language' | 'shoppingPreferences';

export interface FieldError {
  field: RegistrationField;
  /** An i18n message id, e.g. validation.email. */
  code: string;
}

export interface RegisterResult {
  outcome: RegistrationOutcome | null;
  /** The member id: set for FORM_FINISHED only (never for an address that was already known). */
  memberId: string | null;
  fieldErrors: FieldError[];
  codeErrors: RegistrationCodeError[];
  /**
   * ACCOUNT_PENDING only: the address's activation email was sent again RESENDS_PER_HOUR times
   * in the last hour, so none went out now (the visitor's "send it again" says so, issue 20 §1).
   */
  resendLimitReached?: boolean;
}

/** The shared path's result: RegisterResult, plus ACTIVATED with the voucher and first name. */
export interface RegistrationRun {
  outcome: RegistrationRunOutcome | null;
  /** The member id: set for FORM_FINISHED and ACTIVATED. */
  memberId: string | null;
  fieldErrors: FieldError[];
  codeErrors: RegistrationCodeError[];
  /** Set when ACTIVATED. */
  voucher: IssuedWelcomeVoucher | null;
  /** Set when ACTIVATED (null when the member gave none). */
  firstName: string | null;
  /** ACCOUNT_PENDING only: no email went out, the hour's resends are used up (RegisterResult). */
  resendLimitReached?: boolean;
}

/** What a registration from the social second step adds to the form. */
export interface SocialRegistrationExtras {
  /** The identity provider vouches that the person controls the address: active at once, no email. */
  emailVerified: boolean;
  /** At least one is required (validation.preferences). */
  shoppingPreferences: readonly ShoppingPreference[];
  /** The provider account; linked to the member only when the address is verified (see linkSocialIdentity). */
  identity: { provider: string; subject: string };
}

export interface RegisterDeps {
  db: Db;
  secret: string;
  referrerBlocklist: readonly string[];
  outboxSignal?: OutboxSignal;
  /** Where ACTIVE is published when a registration activates a member at once. */
  events?: RegistrationEvents;
  logger?: Logger;
  now?: Date;
  /**
   * The public form's gate (proof of work, mailbox limit; ADR 041). Absent for the social second
   * step, whose signed token already proves a sign-in at the provider.
   */
  gate?: SignUpGate;
  /** Asks DNS whether an address's domain receives mail; null when EMAIL_DOMAIN_CHECK is off (ADR 042). */
  mailDomains?: MailDomainChecker | null;
  /** Counts the registration (and what the code check sees) against the code (ADR 043); absent when an operator releases held ones. */
  codeWatch?: CodeWatch;
  /**
   * Registrations per code, whoever sends them (ADR 041): RATE_LIMITED beyond. Not for the
   * inviter's fresh private link of a quarantined code: the people it is meant for go on.
   */
  codeLimiter?: RateLimiter;
}

export interface ValidFields {
  email: string;
  gender: Gender | null;
  firstName: string;
  lastName: string;
  country: string;
  language: Locale;
  /** Deduplicated; empty outside the social second step. */
  shoppingPreferences: ShoppingPreference[];
  /** DNS could not be asked whether the domain receives mail: accepted, and flagged (ADR 042). */
  mailDomainUnverified: boolean;
}

export const ERRORS_ONLY = (fieldErrors: FieldError[], codeErrors: RegistrationCodeError[]): RegistrationRun => ({
  outcome: null,
  memberId: null,
  fieldErrors,
  codeErrors,
  voucher: null,
  firstName: null,
});

/**
 * What a submission the gate refused hears: a new registration, "check your inbox", with an id
 * like any other (it names no registration), and nothing written or sent (ADR 041).
 */
export const ANSWERED_AS_SUCCESS = (): RegistrationRun => answer('FORM_FINISHED', randomUUID());

export const answer = (outcome: RegistrationRunOutcome, memberId: string | null): RegistrationRun => ({
  outcome,
  memberId,
  fieldErrors: [],
  codeErrors: [],
  voucher: null,
  firstName: null,
});


/** ACTIVE on the status channel; a failure to publish is logged, never the registration's. */
export async function publishActive(deps: RegisterDeps, memberId: string) {
  // Activation queued the welcome email (ADR 058).
  deps.outboxSignal?.notify();
  await deps.events?.publish({ memberId, state: 'ACTIVE' }).catch((error: unknown) => {
    deps.logger?.warn({ err: error }, 'registration: could not publish the status change');
  });
}

