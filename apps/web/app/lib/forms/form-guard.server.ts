/**
 * The server's side of the public forms' guards (issue 12 §2, ADR 041): the signed instant a
 * visitor was first shown a public form (handed out by server/form-start.ts, kept by the browser
 * for its page load: lib/forms/form-start.ts), and the screening of a submission — a filled honeypot,
 * or a start that is forged, sent sooner after it than FORM_MIN_FILL_SECONDS, a day old or used
 * up, is a script's. A script's submission gets the answer a person gets on success, and the API
 * is not called: nothing is written or sent. A submission without a start (no JavaScript, or
 * none could be had) is not a script's: like one without a proof of work it goes on to the API,
 * which decides — without a proof, its small allowance per client network (ADR 041). The proof
 * of work travels on to the API, which checks it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PROOF_OF_WORK_MAX_LENGTH } from '@velvet/validation/sign-up-guards';
import { GUARD_FIELDS } from '@velvet/validation/sign-up-guard-fields';
import type { RouterContextProvider } from 'react-router';
import { requestInfoContext } from '../page/context.ts';
import { FORM_START_MAX_AGE_MS, FORM_START_USES } from './form-start.ts';

const signature = (secret: string, value: string) => createHmac('sha256', `velvet-form-start:${secret}`).update(value).digest('base64url');

/**
 * The value of the form's start field: the instant it was handed out and a random part of its
 * own, signed. Its uses are counted per value (FORM_START_USES), so two visitors who fetched
 * theirs in the same millisecond — twenty colleagues opening the campaign's link together —
 * must not share one: the sixth of them would be taken for a script.
 */
export function formStartToken(secret: string, now: Date = new Date()): string {
  const stamped = `${now.getTime().toString(36)}.${randomBytes(8).toString('base64url')}`;
  return `${stamped}.${signature(secret, stamped)}`;
}

/**
 * The instant (ms) a start field names, or null when it is not ours. A start without the random
 * part (`instant.signature`, handed out before it had one) is still read, so a page loaded before
 * a deployment keeps its start.
 */
function readFormStart(secret: string, value: FormDataEntryValue | null): number | null {
  if (typeof value !== 'string' || value.length > 80) return null;
  const parts = value.split('.');
  if (parts.length !== 2 && parts.length !== 3) return null;
  const given = parts.pop()!;
  const expected = signature(secret, parts.join('.'));
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return null;
  const at = parseInt(parts[0]!, 36);
  return Number.isFinite(at) ? at : null;
}

/** Starts in use, oldest first (at most this many; the oldest go first under a flood). Per process: the API's limits and single-use proofs are the shared defence. */
const MAX_TRACKED_STARTS = 50_000;
const startUses = new Map<string, number>();

/** Counts one more use of a start; false once it has been used FORM_START_USES times. */
function spendStart(start: string): boolean {
  const used = startUses.get(start) ?? 0;
  if (used >= FORM_START_USES) return false;
  startUses.set(start, used + 1);
  if (startUses.size > MAX_TRACKED_STARTS) startUses.delete(startUses.keys().next().value!);
  return true;
}

/**
 * A script's submission: a filled honeypot, or a forged, too early, too old or used-up start.
 * No start at all is a browser without JavaScript (or without a start to be had): not a
 * script's here; it goes on to the API, whose proof of work — or, without one, whose allowance
 * for sign-ups without a proof per client network — decides.
 */
export function isScriptedSubmission(formData: FormData, context: Readonly<RouterContextProvider>, now: Date = new Date()): boolean {
  const info = context.get(requestInfoContext);
  const honeypot = formData.get(GUARD_FIELDS.honeypot);
  if (typeof honeypot === 'string' && honeypot.trim() !== '') return true;
  const start = formData.get(GUARD_FIELDS.startedAt);
  if (start === null || start === '') return false;
  const startedAt = readFormStart(info.appSecret, start);
  if (startedAt === null) return true;
  const age = now.getTime() - startedAt;
  if (age < info.formMinFillSeconds * 1000 || age > FORM_START_MAX_AGE_MS) return true;
  return !spendStart(start as string);
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
