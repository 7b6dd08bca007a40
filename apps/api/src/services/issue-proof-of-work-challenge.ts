/**
 * Query.proofOfWorkChallenge (issue 12 §2, ADR 041): the challenge a public form's browser
 * solves while the person fills it in, as hard as the recent sign-up rate asks. None when the
 * check is off, or for a registration through a signed single-use invitation link (a personal
 * invitation's email): that link already proves the club sent it to this person.
 */
import type { ProofOfWorkForm } from '@velvet/validation/sign-up-guard-fields';
import type { Db } from '../db/connect.ts';
import { issueChallenge } from '../domain/proof-of-work.ts';
import type { SignUpRate } from '../domain/sign-up-rate.ts';
import { checkRegistrationCode } from './check-registration-code.ts';

export interface ProofOfWorkChallenge {
  /** ALTCHA's challenge as JSON; null when no proof is asked. */
  challenge: string | null;
  /** 0 (quiet) to 4: each level doubles the work. */
  level: number;
}

export interface IssueChallengeDeps {
  db: Db;
  secret: string;
  referrerBlocklist: readonly string[];
  signUpRate: SignUpRate;
  /** PROOF_OF_WORK and PROOF_OF_WORK_DIFFICULTY. */
  proofOfWork: { enabled: boolean; difficulty: number };
  now: Date;
}

export async function issueProofOfWorkChallenge(
  deps: IssueChallengeDeps,
  input: { form: ProofOfWorkForm; registrationCode?: string | null; validityTimestamp?: string | null },
): Promise<ProofOfWorkChallenge> {
  if (!deps.proofOfWork.enabled) return { challenge: null, level: 0 };
  if (input.form === 'REGISTRATION' && input.registrationCode && input.validityTimestamp) {
    const check = await checkRegistrationCode(deps, { registrationCode: input.registrationCode, validityTimestamp: input.validityTimestamp });
    if (check.signedSingleUseLink) return { challenge: null, level: 0 };
  }
  const level = await deps.signUpRate.level(deps.now);
  const challenge = await issueChallenge({ secret: deps.secret, form: input.form, difficulty: deps.proofOfWork.difficulty, level, now: deps.now });
  return { challenge, level };
}
