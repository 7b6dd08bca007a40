/**
 * The public forms' guard fields and the proof's encoding (sign-up-guards.ts, ADR 041), without
 * Zod: the browser's forms name and fill them on every public page; only the API parses a proof.
 */
import type { ProofOfWork } from './sign-up-guards.ts';

/** The forms that ask for a proof of work (GraphQL enum ProofOfWorkForm). */
export const PROOF_OF_WORK_FORMS = ['REGISTRATION', 'MEMBERSHIP_INTEREST', 'WAITING_LIST'] as const;
export type ProofOfWorkForm = (typeof PROOF_OF_WORK_FORMS)[number];

export function isProofOfWorkForm(value: unknown): value is ProofOfWorkForm {
  return (PROOF_OF_WORK_FORMS as readonly unknown[]).includes(value);
}

/** Form field names. */
export const GUARD_FIELDS = { proofOfWork: 'proofOfWork', honeypot: 'website', startedAt: 'formStartedAt' } as const;

export function encodeProofOfWork(proof: ProofOfWork): string {
  const bytes = new TextEncoder().encode(JSON.stringify(proof));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
