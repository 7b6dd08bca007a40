/**
 * The gate of the public sign-up mutations (register, applyForMembership, requestLobbyLink;
 * issue 12 §2, ADR 041). A submission passes when it carries a proof of work solved for its
 * form and not used before (unless a signed single-use invitation link exempts it), and its
 * mailbox has not been signed up too often on that form lately. A submission that does not pass
 * gets the answer a person gets on success, and nothing is written or sent: a script learns
 * nothing from the answer, and no inbox gets mail it did not ask for.
 *
 * A submission without any proof is a browser without JavaScript (the forms work without it,
 * ADR 005): it passes within a small budget of its own — per client network, and a ceiling for
 * everyone together that a network's first sign-up of the hour is never held to — and beyond it
 * is told RATE_LIMITED, honestly, like any per-address limit.
 */
import { PROOF_OF_WORK_FORMS } from '@velvet/validation/sign-up-guard-fields';
import type { ProofOfWorkForm } from '@velvet/validation/sign-up-guard-fields';
import type { Logger } from '../logger.ts';
import { keyedName } from '../lib/tokens.ts';
import { enforceRateLimit } from '../rate-limit.ts';
import type { RateLimiters } from '../rate-limit.ts';
import { mailboxOf } from './email-normalization.ts';
import { checkProofOfWork } from './proof-of-work.ts';

interface SignUpSubmission {
  /** The address as the form validated it. */
  email: string;
  proofOfWork: string | null | undefined;
  /** A signed single-use invitation link: no proof of work asked. */
  exempt?: boolean;
}

/**
 * The mailbox limit's key: one count per form and mailbox (however the address is spelled). The
 * mailbox is named by its HMAC under a key of APP_SECRET, as the audit log names people (ADR 048):
 * the counts live in Redis, where an address in a key name would be personal data in clear for
 * anyone who can list the keys.
 */
function signUpMailboxKey(form: ProofOfWorkForm, email: string, secret: string): string {
  return `${form}:${keyedName(secret, 'sign-up-mailbox', mailboxOf(email))}`;
}

/**
 * Forgets the mailbox limit's counts of this address on every form (an erasure, ADR 048): they
 * are keyed by the mailbox, so they would otherwise outlive the person's data by up to an hour.
 */
export async function forgetMailbox(limiters: Pick<RateLimiters, 'signUpMailbox'>, email: string, secret: string): Promise<void> {
  await Promise.all(PROOF_OF_WORK_FORMS.map((form) => limiters.signUpMailbox.forget(signUpMailboxKey(form, email, secret))));
}

export interface SignUpGate {
  admit(form: ProofOfWorkForm, submission: SignUpSubmission): Promise<boolean>;
}

export function createSignUpGate(deps: {
  secret: string;
  limiters: Pick<RateLimiters, 'proofOfWorkReplay' | 'signUpMailbox' | 'noScriptSignUpsPerNetwork' | 'noScriptSignUps'>;
  proofOfWork: boolean;
  /** The client network (@velvet/validation/client-network): the no-script budget's key. */
  network: string;
  now: Date;
  logger?: Logger;
}): SignUpGate {
  return {
    async admit(form, submission) {
      const refuse = (reason: string) => {
        // The reason for the operators; the client hears success.
        deps.logger?.info({ form, reason }, 'sign-up gate: refused, answered as success');
        return false;
      };
      if (deps.proofOfWork && !submission.exempt && !submission.proofOfWork) {
        // No proof at all: a browser without JavaScript, within the no-script budget.
        // A network's first of the hour never waits for what other networks spent (a script with
        // many networks could otherwise shut the door for everyone); the ceiling counts the rest.
        const used = await enforceRateLimit(deps.limiters.noScriptSignUpsPerNetwork, deps.network);
        if (used > 1) await enforceRateLimit(deps.limiters.noScriptSignUps, 'all');
      } else if (deps.proofOfWork && !submission.exempt) {
        const proof = await checkProofOfWork(deps.secret, form, submission.proofOfWork, deps.now);
        if (!proof.ok) return refuse(`proof of work ${proof.reason}`);
        if (!(await deps.limiters.proofOfWorkReplay.consume(proof.signature)).allowed) return refuse('proof of work used before');
      }
      if (!(await deps.limiters.signUpMailbox.consume(signUpMailboxKey(form, submission.email, deps.secret))).allowed) return refuse('mailbox limit');
      return true;
    },
  };
}
