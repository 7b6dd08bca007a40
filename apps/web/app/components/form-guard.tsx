/**
 * What every public form carries besides its fields (issue 12 §2, ADR 041), invisible to people:
 * a honeypot field (out of sight, out of the tab order, hidden from assistive technology), the
 * signed instant the visitor was first shown a public form (fetched after hydration and kept
 * for the page load, lib/forms/form-start.ts: never in the page's HTML, which a shared cache keeps for
 * everyone), and — for the sign-up forms — a proof of work the browser solves once the person
 * starts on the form. Sent before the start or the proof is ready, the form waits for them and
 * says so in a status line, then goes on by itself. Without JavaScript, or when no start or no
 * challenge could be had, the form goes without them and the API decides (ADR 041). A form may
 * ask for more to be ready before it goes (`prepare`: its client-side checks, loaded when the
 * person starts on it, lib/forms/client-validation.ts).
 */
import { useEffect, useRef, useState } from 'react';
import { GUARD_FIELDS } from '@velvet/validation/sign-up-guard-fields';
import { solveProofOfWork, type ProofOfWorkRequest } from '../lib/forms/proof-of-work.ts';
import { formStartSent, formStartVerdict, requestFormStart } from '../lib/forms/form-start.ts';
import { useLaterMessages, useT } from '../lib/page/use-root.ts';

/** A proof is good for 20 minutes at the API (ADR 041); older than this, the form solves a new one before it goes. */
const PROOF_FRESH_MS = 15 * 60 * 1000;
/** The longest a submission waits for `prepare` (a stalled download): then it goes to the action, checked there as without JavaScript. */
const PREPARE_WAIT_MS = 5000;

export function FormGuard({ proofOfWork, prepare }: { proofOfWork?: ProofOfWorkRequest; prepare?: () => Promise<void> }) {
  const t = useT();
  useLaterMessages('form.securing');
  const anchor = useRef<HTMLSpanElement>(null);
  const [waiting, setWaiting] = useState(false);
  const form = proofOfWork?.form;
  const registrationCode = proofOfWork?.registrationCode;
  const validityTimestamp = proofOfWork?.validityTimestamp;

  useEffect(() => {
    const holder = anchor.current;
    const element = holder?.closest('form');
    if (!holder || !element) return;
    // The visitor is shown a public form: this page load's start is fetched, once (lib/forms/form-start.ts).
    requestFormStart();
    // Outside React's reach: a re-render must never reset a value. Inside the hidden anchor, not
    // at the form's end: a new last child would move the form's spacing (layout shift).
    const hidden = (name: string) => {
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = name;
      holder.append(field);
      return field;
    };
    const startField = hidden(GUARD_FIELDS.startedAt);
    const proofField = form ? hidden(GUARD_FIELDS.proofOfWork) : null;
    let solving: Promise<void> | null = null;
    let settled = !form;
    let preparing: Promise<void> | null = null;
    let prepared = !prepare;
    const ready = () =>
      (preparing ??= (prepare ? Promise.race([prepare(), new Promise<void>((resolve) => setTimeout(resolve, PREPARE_WAIT_MS))]) : Promise.resolve()).finally(() => {
        prepared = true;
      }));
    let solvedAt = 0;
    /** A submission waits for its start or proof: pressing again sends nothing twice. */
    let queued = false;
    const solve = () =>
      (solving ??= solveProofOfWork({ form: form!, registrationCode, validityTimestamp })
        .then((proof) => {
          proofField!.value = proof;
          solvedAt = Date.now();
        })
        // No challenge to be had: the form goes without a proof, as without JavaScript.
        .catch(() => undefined)
        .finally(() => {
          settled = true;
        }));
    // The work starts when the person starts on the form, not for every visitor of the page;
    // a start that could not be had is asked for again then.
    const begin = () => {
      requestFormStart();
      if (form) void solve();
      void ready();
    };
    const onSubmit = (event: SubmitEvent) => {
      // "Back" (formnovalidate) sends nothing on: it need not wait.
      if (event.submitter instanceof HTMLButtonElement && event.submitter.formNoValidate) return;
      if (queued) {
        // Pressed again while it waits: it goes once, when it is ready.
        event.preventDefault();
        event.stopImmediatePropagation();
        return;
      }
      if (form && settled && solvedAt && Date.now() - solvedAt > PROOF_FRESH_MS) {
        // A page left open for long: its proof would be past its time at the API. A new one.
        settled = false;
        solving = null;
        proofField!.value = '';
      }
      const start = formStartVerdict();
      if (settled && prepared && 'value' in start) {
        // The page load's start while it is good (old enough, not used up); else none, as without JavaScript.
        startField.value = start.value ?? '';
        if (start.value) formStartSent();
        return;
      }
      // Before React Router sees it: the form goes once its start and proof are there.
      event.preventDefault();
      event.stopImmediatePropagation();
      queued = true;
      setWaiting(true);
      const submitter = event.submitter instanceof HTMLButtonElement || event.submitter instanceof HTMLInputElement ? event.submitter : null;
      void Promise.all(['wait' in start ? start.wait : null, form ? solve() : null, ready()]).then(() => {
        queued = false;
        setWaiting(false);
        element.requestSubmit(submitter);
      });
    };
    element.addEventListener('focusin', begin, { once: true });
    element.addEventListener('pointerdown', begin, { once: true });
    element.addEventListener('submit', onSubmit);
    return () => {
      element.removeEventListener('focusin', begin);
      element.removeEventListener('pointerdown', begin);
      element.removeEventListener('submit', onSubmit);
      startField.remove();
      proofField?.remove();
    };
  }, [form, registrationCode, validityTimestamp, prepare]);

  return (
    <>
      <span ref={anchor} hidden />
      <div aria-hidden="true" className="honeypot">
        <label>
          {t('form.honeypot')}
          <input type="text" name={GUARD_FIELDS.honeypot} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      {(form || waiting) && (
        <p role="status" className="text-sm text-stone empty:hidden">
          {waiting ? t('form.securing') : ''}
        </p>
      )}
    </>
  );
}
