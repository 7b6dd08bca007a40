/**
 * A client's side of the proof of work (ADR 041), for tests that send a public sign-up the way a
 * browser does: fetch the challenge, solve it with ALTCHA's solver (Node's PBKDF2 here, WebCrypto
 * in the browser) and hand over the encoded proof. The e2e support uses it too.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import { encodeProofOfWork } from '@velvet/validation/sign-up-guard-fields';
import type { ProofOfWork } from '@velvet/validation/sign-up-guards';

export const CHALLENGE = /* GraphQL */ `
  query challenge($form: ProofOfWorkForm!, $registrationCode: String, $validityTimestamp: String) {
    proofOfWorkChallenge(form: $form, registrationCode: $registrationCode, validityTimestamp: $validityTimestamp) {
      challenge
      level
    }
  }
`;

/** The proof for a challenge as Query.proofOfWorkChallenge returns it (JSON). */
export async function solveProofOfWork(challengeJson: string): Promise<string> {
  const challenge = JSON.parse(challengeJson) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the proof of work was not solved in time');
  return encodeProofOfWork({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } } as ProofOfWork);
}
