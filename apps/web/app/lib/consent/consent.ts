/**
 * Consent readiness (spec §4) for the app and for analytics: a tiny store. It starts not
 * ready; it becomes ready when the consent script's consent-status-updated event fires and
 * the script reports itself initialised — which happens once the visitor has a choice (a
 * stored one, or the one just made). On pages without the consent script (activateaccount,
 * or CMP_ENABLED=false) the stored choice in the consent cookie is read instead; with no
 * stored choice such a page never becomes ready, and nothing reaches the data layer.
 *
 * Every change of the choice is passed on to Google Consent Mode (gtag 'consent','update').
 */
import { CONSENT_STATUS_EVENT, type ConsentChoice, choiceFromCookie, consentModeSignals } from './consent-shared.ts';

export interface ConsentState extends ConsentChoice {
  ready: boolean;
}

const NOT_READY: ConsentState = Object.freeze({ ready: false, analytics: false, marketing: false });

let state: ConsentState = NOT_READY;
const listeners = new Set<() => void>();

export function consentState(): ConsentState {
  return state;
}

export function subscribeConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function set(choice: ConsentChoice): void {
  const next: ConsentState = { ready: true, analytics: choice.analytics, marketing: choice.marketing };
  if (state.ready && state.analytics === next.analytics && state.marketing === next.marketing) return;
  state = next;
  window.gtag?.('consent', 'update', consentModeSignals(choice));
  for (const listener of [...listeners]) listener();
}

let started = false;

/**
 * Starts listening (once per page). `cmpOnPage`: whether the consent script loads on this
 * page; without it the consent cookie is the only source.
 */
export function startConsent({ cmpOnPage }: { cmpOnPage: boolean }): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const fromCmp = () => {
    const cmp = window.AcqCmp;
    const choice = cmp?.isInitialized() ? cmp.choice() : null;
    if (choice) set(choice);
  };
  window.addEventListener(CONSENT_STATUS_EVENT, fromCmp);
  if (cmpOnPage) {
    // The script may have run before this bundle did.
    fromCmp();
  } else {
    const choice = choiceFromCookie(document.cookie);
    if (choice) set(choice);
  }
}
