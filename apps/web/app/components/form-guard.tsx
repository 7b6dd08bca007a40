/**
 * What every public form carries besides its fields (issue 12 §2, ADR 041), invisible to people:
 * a honeypot field (out of sight, out of the tab order, hidden from assistive technology), the
 * signed instant the page was rendered, and — for the sign-up forms — a proof of work the
 * browser solves once the person starts on the form. Sent before the proof is ready, the form
 * waits for it and says so in a status line, then goes on by itself. Without JavaScript, or when
 * no challenge could be had, the form goes without a proof and the API decides (ADR 041).
 */
import { useEffect, useRef, useState } from 'react';
import { GUARD_FIELDS } from '@velvet/validation/sign-up-guard-fields';
import { solveProofOfWork, type ProofOfWorkRequest } from '../lib/proof-of-work.ts';
import { useRootData, useT } from '../lib/use-root.ts';

/** A proof is good for 20 minutes at the API (ADR 041); older than this, the form solves a new one before it goes. */
const PROOF_FRESH_MS = 15 * 60 * 1000;

export function FormGuard({ proofOfWork }: { proofOfWork?: ProofOfWorkRequest }) {
  const t = useT();
  const { formStartedAt } = useRootData();
  const anchor = useRef<HTMLSpanElement>(null);
  const [waiting, setWaiting] = useState(false);
  const form = proofOfWork?.form;
  const registrationCode = proofOfWork?.registrationCode;
  const validityTimestamp = proofOfWork?.validityTimestamp;

  useEffect(() => {
    const holder = anchor.current;
    const element = holder?.closest('form');
    if (!form || !holder || !element) return;
    // Outside React's reach: a re-render must never reset the solved value. Inside the hidden
    // anchor, not at the form's end: a new last child would move the form's spacing (layout shift).
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = GUARD_FIELDS.proofOfWork;
    holder.append(field);
    let solving: Promise<void> | null = null;
    let settled = false;
    let solvedAt = 0;
    const solve = () =>
      (solving ??= solveProofOfWork({ form, registrationCode, validityTimestamp })
        .then((proof) => {
          field.value = proof;
          solvedAt = Date.now();
        })
        // No challenge to be had: the form goes without a proof, as without JavaScript.
        .catch(() => undefined)
        .finally(() => {
          settled = true;
        }));
    // The work starts when the person starts on the form, not for every visitor of the page.
    const start = () => void solve();
    const onSubmit = (event: SubmitEvent) => {
      // "Back" (formnovalidate) sends nothing on: it need not wait.
      const back = event.submitter instanceof HTMLButtonElement && event.submitter.formNoValidate;
      if (settled && solvedAt && Date.now() - solvedAt > PROOF_FRESH_MS) {
        // A page left open for long: its proof would be past its time at the API. A new one.
        settled = false;
        solving = null;
        field.value = '';
      }
      if (settled || back) return;
      // Before React Router sees it: the form goes once the proof is there.
      event.preventDefault();
      event.stopImmediatePropagation();
      setWaiting(true);
      const submitter = event.submitter instanceof HTMLButtonElement || event.submitter instanceof HTMLInputElement ? event.submitter : null;
      void solve().then(() => {
        setWaiting(false);
        element.requestSubmit(submitter);
      });
    };
    element.addEventListener('focusin', start, { once: true });
    element.addEventListener('pointerdown', start, { once: true });
    element.addEventListener('submit', onSubmit);
    return () => {
      element.removeEventListener('focusin', start);
      element.removeEventListener('pointerdown', start);
      element.removeEventListener('submit', onSubmit);
      field.remove();
    };
  }, [form, registrationCode, validityTimestamp]);

  return (
    <>
      <span ref={anchor} hidden />
      <input type="hidden" name={GUARD_FIELDS.startedAt} value={formStartedAt} />
      <div aria-hidden="true" className="honeypot">
        <label>
          {t('form.honeypot')}
          <input type="text" name={GUARD_FIELDS.honeypot} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      {form && (
        <p role="status" className="text-sm text-stone empty:hidden">
          {waiting ? t('form.securing') : ''}
        </p>
      )}
    </>
  );
}
