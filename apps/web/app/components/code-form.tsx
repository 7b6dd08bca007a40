import { useEffect, useRef, useState } from 'react';
import { Form, Link } from 'react-router';
import { useSubmitting } from '../lib/forms/forms.ts';
import { FormGuard } from './form-guard.tsx';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { WAITLIST_FIELD } from './landing-sections.tsx';

export interface Notice {
  id: string;
  values?: Record<string, string | number> | undefined;
}

/** What the action answered: the field's message ids and the value that was sent. */
export interface CodeResult {
  errors: string[];
  value: string;
}

const FIELD_ID = 'code-form-code';
const ERROR_ID = `${FIELD_ID}-error`;

/**
 * "Your code is the key": one field whose rule lives on the server (the shared schema and
 * the code check), so the messages are the same with or without JavaScript. A plain form
 * keeps the landing page's first load small; an error clears as soon as the visitor types.
 */
export function CodeForm({
  result,
  defaultCode,
  notice,
  refused = false,
  onFirstInput,
  onSubmit,
}: {
  result?: CodeResult | undefined;
  /** The code of the link the visitor arrived with, kept in the field when it cannot be used. */
  defaultCode?: string | undefined;
  notice?: Notice | undefined;
  /** The notice refuses the code: the ways on are offered with it. */
  refused?: boolean | undefined;
  onFirstInput?: () => void;
  onSubmit?: () => void;
}) {
  const typed = useRef(false);
  const t = useT();
  const busy = useSubmitting('code');
  // The answer the visitor has typed over since: its errors are hidden until a new answer comes.
  const [editedResult, setEditedResult] = useState<CodeResult | undefined>();
  const errors = result && editedResult !== result ? result.errors : [];
  return (
    <Form method="post" noValidate className="space-y-5" onSubmit={() => onSubmit?.()}>
      <input type="hidden" name="intent" value="code" />
      <FormGuard />
      <div>
        <label htmlFor={FIELD_ID} className="eyebrow block text-stone">
          {t('landing.code.label')}
        </label>
        <input
          id={FIELD_ID}
          name="code"
          type="text"
          defaultValue={result?.value ?? defaultCode}
          className="field-input mt-2 uppercase tracking-[0.2em]"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={errors.length ? true : undefined}
          aria-describedby={errors.length ? ERROR_ID : undefined}
          onInput={() => {
            setEditedResult(result);
            if (typed.current) return;
            typed.current = true;
            onFirstInput?.();
          }}
        />
        <div id={ERROR_ID} aria-live="polite" className="mt-2 min-h-5 text-sm text-alert">
          {errors[0] ? <p>{t(errors[0])}</p> : null}
        </div>
      </div>
      {notice && <CodeRefusal notice={notice} refused={refused} />}
      <button type="submit" className="btn-primary w-full" disabled={busy} aria-disabled={busy}>
        {t('landing.code.submit')}
      </button>
    </Form>
  );
}

/** Moves the focus to a form's field (the ways on are in-page links; without a script they only scroll). */
function focusField(event: React.MouseEvent<HTMLAnchorElement>, id: string) {
  const field = document.getElementById(id);
  if (!field) return;
  event.preventDefault();
  field.focus();
}

/**
 * Why a code cannot be used, said where the visitor looks and read out at once: the message
 * takes the focus when it appears (a link's refusal on arrival, unless something else — the
 * consent banner — already holds it; a typed code's when the answer comes), and with a refusal
 * come the ways on: another code, the waiting list, an application (UX review of 27 Nov, row 2).
 */
export function CodeRefusal({
  notice,
  refused,
  onArrival = false,
  className = '',
}: {
  notice: Notice;
  refused: boolean;
  /** Shown with the page (a link's code): the focus is taken only if nothing has it. */
  onArrival?: boolean;
  className?: string;
}) {
  const t = useT();
  const path = useLocalPath();
  const box = useRef<HTMLDivElement>(null);
  const message = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const free = !document.activeElement || document.activeElement === document.body;
    if (onArrival && !free) return;
    message.current?.focus({ preventScroll: true });
    // The message and its ways on, whole.
    box.current?.scrollIntoView({ block: 'center' });
  }, [notice, onArrival]);
  return (
    <div ref={box} className={`border-l-2 border-alert ${className}`} data-testid="code-refusal">
      {/*
        Focused by script to be read out, never reached by Tab: no ring, which on a message that
        cannot be operated reads as a stray frame (issue 22 leftovers); the red rule marks it, and
        the links below keep their rings.
      */}
      <p role="alert" tabIndex={-1} ref={message} className="pl-4 text-sm text-ink outline-none">
        {t(notice.id, notice.values)}
      </p>
      {refused && (
        <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-2 pl-4 text-sm">
          <li>
            <a className="link" href={`#${FIELD_ID}`} onClick={(event) => focusField(event, FIELD_ID)}>{t('landing.code.retry')}</a>
          </li>
          <li>
            <a className="link" href={`#${WAITLIST_FIELD}`} onClick={(event) => focusField(event, WAITLIST_FIELD)}>{t('lobby.join')}</a>
          </li>
          <li>
            <Link className="link" to={path('/membership-interest')}>{t('landing.noCode.cta')}</Link>
          </li>
        </ul>
      )}
    </div>
  );
}
