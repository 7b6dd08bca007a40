import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { useRef } from 'react';
import { Form } from 'react-router';
import { useSubmitting } from '../lib/forms.ts';
import { useT } from '../lib/use-root.ts';

export interface Notice {
  id: string;
  values?: Record<string, string | number> | undefined;
}

/**
 * "Your code is the key": one field, validated on the server with the shared schema so
 * the messages are the same with or without JavaScript.
 */
export function CodeForm({
  lastResult,
  notice,
  onFirstInput,
  onSubmit,
}: {
  lastResult?: SubmissionResult<string[]> | undefined;
  notice?: Notice | undefined;
  onFirstInput?: () => void;
  onSubmit?: () => void;
}) {
  const typed = useRef(false);
  const t = useT();
  const [form, { code }] = useForm<{ code: string }>({ id: 'code-form', lastResult, shouldRevalidate: 'onInput' });
  const busy = useSubmitting('code');
  const errors = code.errors ?? [];
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-5" onSubmitCapture={() => onSubmit?.()}>
      <input type="hidden" name="intent" value="code" />
      <div>
        <label htmlFor={code.id} className="eyebrow block text-stone">
          {t('landing.code.label')}
        </label>
        <input
          {...getInputProps(code, { type: 'text' })}
          className="field-input mt-2 uppercase tracking-[0.2em]"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          onInput={() => {
            if (typed.current) return;
            typed.current = true;
            onFirstInput?.();
          }}
          aria-describedby={errors.length ? code.errorId : undefined}
        />
        <div id={code.errorId} aria-live="polite" className="mt-2 min-h-5 text-sm text-alert">
          {errors.map((id) => (
            <p key={id}>{t(id)}</p>
          ))}
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
