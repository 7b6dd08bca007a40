import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import type { SubmissionResult } from '@conform-to/react';
import type { ReactNode } from 'react';
import { Form } from 'react-router';
import { describedBy, FieldErrors } from './field.tsx';
import { useSubmitting } from '../lib/forms/forms.ts';
import { useT } from '../lib/page/use-root.ts';

/**
 * One exact address (ADR 048): the member look-up's and the data-protection page's form. Posted,
 * never in the URL, so no address lands in an access log or the browser history. The buttons
 * each name their intent; each is disabled while its own submission is on its way.
 */
export function AddressForm({
  id,
  lastResult,
  buttons,
  children,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | undefined;
  buttons: { intent: string; label: string; primary?: boolean }[];
  children?: ReactNode;
}) {
  const t = useT();
  const navigationBusy = useSubmitting();
  const [form, fields] = useForm<{ email: string }>({ id, lastResult, shouldRevalidate: 'onInput' });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-10 grid gap-6 bg-paper p-8 text-ink">
      <div className="max-w-xl">
        <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('admin.members.email')}</label>
        <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="off" spellCheck={false} className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
        <FieldErrors field={fields.email} />
      </div>
      {children}
      <div className="flex flex-wrap gap-4">
        {buttons.map((button) => (
          <button key={button.intent} type="submit" name="intent" value={button.intent} className={button.primary === false ? 'btn-outline' : 'btn-primary'} disabled={navigationBusy}>
            {t(button.label)}
          </button>
        ))}
      </div>
    </Form>
  );
}
