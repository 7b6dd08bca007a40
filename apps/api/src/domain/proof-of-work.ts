/**
 * The proof of work of the public sign-up forms (issue 12 §2, ADR 041), with ALTCHA's library:
 * the API issues a signed challenge, the visitor's browser solves it while the person fills in
 * the form, and the mutation checks the solution. Nothing is fetched from anyone: challenge and
 * check are HMACs with a key derived from APP_SECRET.
 *
 * The challenge is ALTCHA's deterministic kind: the API picks a secret counter, the browser
 * tries counters from 0 until its PBKDF2 key matches, so the work is the counter — on average
 * `difficulty` derivations, doubled for each level the recent sign-up rate reaches. The check is
 * one HMAC (the key's signature), whatever the difficulty.
 */
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { decodeProofOfWork } from '@velvet/validation/sign-up-guards';
import type { ProofOfWorkForm } from '@velvet/validation/sign-up-guard-fields';
import { deriveKey as purposeKey } from '../lib/tokens.ts';

const ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations of one try: about 0.2 ms in desktop Chromium, so tries cost the same everywhere. */
const COST = 1000;
/** How long a challenge can be solved and sent: a person filling in a form, with time to spare. */
export const CHALLENGE_TTL_SECONDS = 20 * 60;
/** Levels above the quiet one; each doubles the work (up to 8×: a few seconds on a phone). */
export const MAX_DIFFICULTY_LEVEL = 3;

function secrets(appSecret: string) {
  return {
    hmacSignatureSecret: purposeKey(appSecret, 'velvet-proof-of-work:challenge').toString('base64url'),
    hmacKeySignatureSecret: purposeKey(appSecret, 'velvet-proof-of-work:key').toString('base64url'),
  };
}

/** A challenge for `form` as the JSON the browser solves. */
export async function issueChallenge(options: { secret: string; form: ProofOfWorkForm; difficulty: number; level: number; now: Date }): Promise<string> {
  const mean = options.difficulty * 2 ** Math.min(Math.max(0, options.level), MAX_DIFFICULTY_LEVEL);
  // The secret counter: anywhere between half and one and a half times the mean.
  const counter = randomInt(Math.max(2, Math.round(mean * 1.5)), Math.max(1, Math.round(mean * 0.5)));
  const challenge = await createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter,
    deriveKey,
    data: { form: options.form, issuedAt: Math.floor(options.now.getTime() / 1000), level: options.level },
    ...secrets(options.secret),
  });
  return JSON.stringify(challenge);
}

export type ProofOfWorkCheck =
  | { ok: true; signature: string }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'other-form' };

/**
 * Checks a proof sent with `form` at `now`: signed by us, for this form, not older than
 * CHALLENGE_TTL_SECONDS, solved. Single use is the caller's (the signature is its key).
 */
export async function checkProofOfWork(secret: string, form: ProofOfWorkForm, value: string | null | undefined, now: Date): Promise<ProofOfWorkCheck> {
  if (!value) return { ok: false, reason: 'missing' };
  const proof = decodeProofOfWork(value);
  if (!proof || proof.challenge.parameters.algorithm !== ALGORITHM || proof.challenge.parameters.cost !== COST) {
    return { ok: false, reason: 'invalid' };
  }
  const verified = await verifySolution({ challenge: proof.challenge, solution: proof.solution, deriveKey, ...secrets(secret) });
  if (!verified.verified) return { ok: false, reason: 'invalid' };
  // Signed by us, so the data is ours: the form and the moment it was issued.
  const { data } = proof.challenge.parameters;
  if (data?.form !== form) return { ok: false, reason: 'other-form' };
  const issuedAt = typeof data.issuedAt === 'number' ? data.issuedAt : 0;
  const age = now.getTime() / 1000 - issuedAt;
  if (age > CHALLENGE_TTL_SECONDS || age < -60) return { ok: false, reason: 'expired' };
  return { ok: true, signature: proof.challenge.signature };
}
