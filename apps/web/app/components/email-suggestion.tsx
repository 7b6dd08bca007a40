import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useLaterMessages, useT } from '../lib/page/use-root.ts';

type Suggest = (typed: string) => string | null;
let loading: Promise<Suggest> | undefined;

/**
 * The suggestion rules and the provider list (@velvet/validation/email-suggestion), fetched on the
 * first blur of any email field and never with the page: the landing's first load stays as it was.
 */
function loadSuggest(): Promise<Suggest> {
  loading ??= import('@velvet/validation/email-suggestion').then((module) => module.suggestEmail);
  return loading;
}

/** Sets the field's value as typing would, so the form's own validation and state follow it. */
function fill(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

interface State {
  /** The server's suggestion this state was made from: a new one (a new form result) starts over. */
  server: string | null;
  suggestion: string | null;
  accepted: string | null;
  /** After hydration, a tap can fill the field; before it (or without JavaScript) the address is text. */
  interactive: boolean;
}

/**
 * "Did you mean anna@gmx.de?" under an email field (issue 24 §3, ADR 061): as the visitor leaves
 * the field (the rules run in the browser), or from the server's answer with the form result (so
 * without JavaScript too). Advice only: nothing changes until the visitor taps the address, which
 * fills the field, puts the focus back in it and says so through the polite live region.
 */
export function EmailSuggestion({ inputId, server = null }: { inputId: string; server?: string | null | undefined }) {
  const t = useT();
  const intl = useIntl();
  useLaterMessages('emailSuggestion.question', 'emailSuggestion.accepted');
  const [state, setState] = useState<State>({ server, suggestion: server, accepted: null, interactive: false });
  if (state.server !== server) setState({ ...state, server, suggestion: server, accepted: null });

  useEffect(() => {
    // Listened to on the document, so a field the form re-creates (a reset, a new result) is still heard.
    const field = (event: Event) => (event.target instanceof HTMLInputElement && event.target.id === inputId ? event.target : null);
    let mounted = true;
    // A suggestion that appears while a pointer is down (the visitor left the field by pressing the
    // submit button) would move that button from under the finger and lose the click: it waits
    // for the pointer to come up, after the click.
    let pointerDown = false;
    let waiting: (() => void) | null = null;
    const show = (update: () => void) => {
      if (pointerDown) waiting = update;
      else update();
    };
    const onPointerDown = () => {
      pointerDown = true;
    };
    const onPointerUp = () => {
      pointerDown = false;
      const update = waiting;
      waiting = null;
      if (update) setTimeout(update);
    };
    const onLeave = (event: FocusEvent) => {
      const input = field(event);
      if (!input) return;
      const typed = input.value;
      void loadSuggest().then((suggest) => {
        // Answer only for the address still in the field; an accepted one stays said until the next edit.
        const suggestion = suggest(typed);
        if (mounted && input.value === typed) show(() => setState((s) => (suggestion === s.suggestion ? s : { ...s, suggestion, accepted: suggestion ? null : s.accepted })));
      });
    };
    // Typing again makes a suggestion for the old address stale.
    const onInput = (event: Event) => {
      if (field(event)) setState((s) => (s.suggestion === null && s.accepted === null ? s : { ...s, suggestion: null, accepted: null }));
    };
    document.addEventListener('focusout', onLeave);
    document.addEventListener('input', onInput);
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('pointerup', onPointerUp, true);
    document.addEventListener('pointercancel', onPointerUp, true);
    const hydrated = requestAnimationFrame(() => setState((s) => ({ ...s, interactive: true })));
    return () => {
      mounted = false;
      cancelAnimationFrame(hydrated);
      document.removeEventListener('focusout', onLeave);
      document.removeEventListener('input', onInput);
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('pointerup', onPointerUp, true);
      document.removeEventListener('pointercancel', onPointerUp, true);
    };
  }, [inputId]);

  const accept = (address: string) => {
    const input = document.getElementById(inputId);
    if (!(input instanceof HTMLInputElement)) return;
    fill(input, address);
    setState((s) => ({ ...s, suggestion: null, accepted: address }));
    // The button goes away with the suggestion: the focus returns to the field it changed.
    input.focus();
  };

  const { suggestion, accepted, interactive } = state;
  return (
    <div aria-live="polite" data-testid={`${inputId}-suggestion`} className="text-sm text-ink">
      {suggestion ? (
        <p className="mt-1">
          {intl.formatMessage(
            { id: 'emailSuggestion.question' },
            {
              address: suggestion,
              suggested: (chunks) =>
                interactive ? (
                  <button type="button" onClick={() => accept(suggestion)} className="link min-h-6 font-medium">
                    {chunks}
                  </button>
                ) : (
                  <strong className="font-medium">{chunks}</strong>
                ),
            },
          )}
        </p>
      ) : accepted ? (
        <p className="mt-1 text-stone">{t('emailSuggestion.accepted', { address: accepted })}</p>
      ) : null}
    </div>
  );
}
