import { useRef, useState } from 'react';
import { Form } from 'react-router';
import { useSubmitting } from '../lib/forms/forms.ts';
import { FormGuard } from './form-guard.tsx';
import { useT } from '../lib/page/use-root.ts';

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
  notice,
  onFirstInput,
  onSubmit,
}: {
  result?: CodeResult | undefined;
  notice?: Notice | undefined;
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
          defaultValue={result?.value}
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
      {notice && (
        <p role="alert" className="border-l-2 border-alert pl-4 text-sm text-ink">
          {t(notice.id, notice.values)}
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={busy} aria-disabled={busy}>
        {t('landing.code.submit')}
      </button>
    </Form>
  );
}
