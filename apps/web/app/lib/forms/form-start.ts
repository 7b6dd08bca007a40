/**
 * A public form's start in the browser (ADR 041; issue 19 §2, issue 20 §1): the signed instant
 * the visitor was first shown a public form. It is never in the page's HTML, which a shared
 * cache keeps for every visitor: once the page has hydrated, the first form guard fetches it
 * from the web server (GET FORM_START_PATH, never cached). It is fetched once per page load and
 * kept across the server's answers and the steps of a flow, so the fill time counts from the
 * first showing: a correction after an error, the lean flow's second step or a double submit is
 * never "too fast" because of a renewed start.
 *
 * A form sent before its start is usable waits for it (it arrives, and it is as old as the
 * server's minimum fill time); a form whose start could not be had, or is used up or a day
 * old, goes without one — like a form without JavaScript, which the server passes on to the
 * API (lib/forms/form-guard.server.ts).
 */

/** The web server's door that hands out a start (server/form-start.ts). */
export const FORM_START_PATH = '/entrance/form-start';
/** How long a start stays good: a person does not keep a sign-up form open for a day. */
export const FORM_START_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/**
 * How many submissions one start lets through: a person's sends and corrections on one page
 * load — not a script's hundred posts after one wait (issue 18 §7).
 */
export const FORM_START_USES = 5;

/** What the door answers: the start, and after how long a form may be sent with it (FORM_MIN_FILL_SECONDS). */
export interface FormStartAnswer {
  start: string;
  readyInMs: number;
}

/** How long the browser waits for the door's answer before a form goes without a start. */
const FETCH_TIMEOUT_MS = 5000;
/** An hour short of its end at the server: the start is left out rather than sent too old. */
const MAX_AGE_MARGIN_MS = 60 * 60 * 1000;

interface HeldStart {
  value: string;
  receivedAt: number;
  readyAt: number;
  sent: number;
}

/** This page load's start: null before it was asked for; its promise settles with null when none could be had. */
let pending: Promise<HeldStart | null> | null = null;
/** The settled start; undefined while it is on its way. */
let held: HeldStart | null | undefined;

function isAnswer(body: unknown): body is FormStartAnswer {
  const answer = body as Partial<FormStartAnswer> | null;
  return typeof answer?.start === 'string' && answer.start !== '' && typeof answer.readyInMs === 'number' && answer.readyInMs >= 0;
}

async function fetchStart(): Promise<HeldStart | null> {
  try {
    const response = await fetch(FORM_START_PATH, { cache: 'no-store', credentials: 'same-origin', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    const body: unknown = response.ok ? await response.json() : null;
    if (!isAnswer(body)) return null;
    const receivedAt = Date.now();
    return { value: body.start, receivedAt, readyAt: receivedAt + body.readyInMs, sent: 0 };
  } catch {
    // Offline, the door's limit, a time-out: the form goes without a start.
    return null;
  }
}

/**
 * A public form is being shown: fetches this page load's start unless it is here or on its
 * way. Only after a failure does a later call (the next form, the person starting on one) ask again.
 */
export function requestFormStart(): void {
  if (pending && held !== null) return;
  held = undefined;
  pending = fetchStart().then((start) => (held = start));
}

/** What a form sent now carries: the start (or none: `value` null), or a promise to wait for before it may go. */
export type FormStartVerdict = { value: string | null } | { wait: Promise<unknown> };

/** Whether a form may go now, and with which start. Nothing is counted: `formStartSent` does that when the form goes. */
export function formStartVerdict(now: number = Date.now()): FormStartVerdict {
  if (!pending) requestFormStart();
  if (held === undefined) return { wait: pending! };
  if (held === null || held.sent >= FORM_START_USES || now - held.receivedAt > FORM_START_MAX_AGE_MS - MAX_AGE_MARGIN_MS) return { value: null };
  if (now < held.readyAt) {
    const delay = held.readyAt - now;
    return { wait: new Promise((resolve) => setTimeout(resolve, delay)) };
  }
  return { value: held.value };
}

/** A form went with this page load's start: one of its uses is spent. */
export function formStartSent(): void {
  if (held) held.sent += 1;
}

/** Tests only: a new page load. */
export function forgetFormStart(): void {
  pending = null;
  held = undefined;
}
