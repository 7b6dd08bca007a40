/**
 * The server's side of the public forms' guards (issue 12 §2, ADR 041): the signed instant a
 * form was rendered, and the screening of a submission — a filled honeypot, or a form sent
 * sooner after its rendering than FORM_MIN_FILL_SECONDS, is a script's. A script's submission
 * gets the answer a person gets on success, and the API is not called: nothing is written or
 * sent. The proof of work travels on to the API, which checks it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PROOF_OF_WORK_MAX_LENGTH } from '@velvet/validation/sign-up-guards';
import { GUARD_FIELDS } from '@velvet/validation/sign-up-guard-fields';
import type { RouterContextProvider } from 'react-router';
import { requestInfoContext } from './context.ts';

const signature = (secret: string, value: string) => createHmac('sha256', `velvet-form-start:${secret}`).update(value).digest('base64url');

/** The value of the form's start field: the rendering's instant, signed. */
export function formStartToken(secret: string, now: Date = new Date()): string {
  const instant = now.getTime().toString(36);
  return `${instant}.${signature(secret, instant)}`;
}

/** The instant (ms) a start field names, or null when it is missing or not ours. */
function readFormStart(secret: string, value: FormDataEntryValue | null): number | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const [instant = '', given = ''] = value.split('.');
  const expected = signature(secret, instant);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return null;
  const at = parseInt(instant, 36);
  return Number.isFinite(at) ? at : null;
}

/** A person's submission, or a script's (a filled honeypot, a forged, missing or too early start). */
export function isScriptedSubmission(formData: FormData, context: Readonly<RouterContextProvider>, now: Date = new Date()): boolean {
  const info = context.get(requestInfoContext);
  const honeypot = formData.get(GUARD_FIELDS.honeypot);
  if (typeof honeypot === 'string' && honeypot.trim() !== '') return true;
  const startedAt = readFormStart(info.appSecret, formData.get(GUARD_FIELDS.startedAt));
  if (startedAt === null) return true;
  return now.getTime() - startedAt < info.formMinFillSeconds * 1000;
}

/**
 * The proof of work the form's script solved, for the API; null when the form came without one
 * (no JavaScript, or no challenge to be had): the API then lets a few such sign-ups through
 * (ADR 041).
 */
export function proofOfWorkOf(formData: FormData): string | null {
  const value = formData.get(GUARD_FIELDS.proofOfWork);
  return typeof value === 'string' && value !== '' && value.length <= PROOF_OF_WORK_MAX_LENGTH ? value : null;
}
