/**
 * The browser's proof of work (issue 12 §2, ADR 041): fetch the form's challenge from
 * /form-challenge and solve it with ALTCHA's solver on WebCrypto's PBKDF2 (asynchronous: the
 * page stays responsive). altcha-lib is loaded only when a form that needs it is on the page.
 */
import { encodeProofOfWork, type ProofOfWorkForm } from '@velvet/validation/sign-up-guard-fields';
import { INVITATION_PARAMS } from '@velvet/validation/links';
import { pageLoadHeaders } from '../page/page-load.ts';

export interface ProofOfWorkRequest {
  form: ProofOfWorkForm;
  /** A registration's invitation: a personal invitation's signed link needs no proof. */
  registrationCode?: string | null | undefined;
  validityTimestamp?: string | null | undefined;
}

/** The proof for one submission: the encoded solution, or '' when there is none to solve. Rejects when it cannot be had. */
export async function solveProofOfWork(request: ProofOfWorkRequest): Promise<string> {
  const params = new URLSearchParams({ form: request.form });
  if (request.registrationCode) params.set(INVITATION_PARAMS.code, request.registrationCode);
  if (request.validityTimestamp) params.set(INVITATION_PARAMS.validityTimestamp, request.validityTimestamp);
  // The challenge is asked of the API in this page load's name, for this page (spec §7.2).
  const response = await fetch(`/form-challenge?${params.toString()}`, { headers: { accept: 'application/json', ...pageLoadHeaders() }, cache: 'no-store' });
  if (!response.ok) throw new Error(`form challenge: HTTP ${response.status}`);
  const { challenge } = (await response.json()) as { challenge: string | null };
  if (!challenge) return '';
  const [{ solveChallenge }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/pbkdf2')]);
  const parsed = JSON.parse(challenge) as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge: parsed, deriveKey });
  if (!solution) throw new Error('form challenge: not solved in time');
  return encodeProofOfWork({
    challenge: parsed as Parameters<typeof encodeProofOfWork>[0]['challenge'],
    solution: { counter: solution.counter, derivedKey: solution.derivedKey },
  });
}
