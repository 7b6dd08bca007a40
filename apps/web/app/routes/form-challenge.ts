/**
 * GET /form-challenge?form=REGISTRATION[&rc=…&validityTimestamp=…]: the proof-of-work challenge
 * a public form's script solves while the person fills it in (issue 12 §2, ADR 041), from the
 * API, as JSON `{ challenge }` (null: none needed, or none to be had). Never cached: each is for one
 * submission.
 */
import { INVITATION_PARAMS } from '@velvet/validation/links';
import { isProofOfWorkForm } from '@velvet/validation/sign-up-guard-fields';
import type { Route } from './+types/form-challenge';
import { callApi } from '../lib/api/api.server.ts';
import { proofOfWorkChallenge } from '../lib/api/operations.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const form = params.get('form');
  if (!isProofOfWorkForm(form)) return Response.json({ error: 'unknown form' }, { status: 400, headers: NO_STORE });
  const registrationCode = params.get(INVITATION_PARAMS.code)?.slice(0, 64) || null;
  const validityTimestamp = params.get(INVITATION_PARAMS.validityTimestamp)?.slice(0, 128) || null;
  const result = await callApi(proofOfWorkChallenge, { form, registrationCode, validityTimestamp }, { request, context });
  // No challenge to be had (the API down or busy; the failure is reported by callApi): the form
  // goes without a proof, as without JavaScript, and the API decides when it is sent.
  return Response.json({ challenge: result.ok ? result.data.proofOfWorkChallenge.challenge : null }, { headers: NO_STORE });
}
