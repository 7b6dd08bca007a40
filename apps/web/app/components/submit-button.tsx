import { useLaterMessages, useT } from '../lib/page/use-root.ts';
import { ButtonLabel } from './button-label.tsx';

/**
 * A form's submit button that says when the form is on its way: a spinner and "Sending…",
 * aria-busy, and disabled from the click until the page it leads to is shown
 * (lib/forms/forms.ts useSubmitting), so it cannot be sent twice.
 */
export function SubmitButton({
  busy,
  label,
  className = 'btn-primary w-full',
  name,
  value,
}: {
  busy: boolean;
  label: string;
  className?: string;
  name?: string;
  value?: string;
}) {
  const t = useT();
  useLaterMessages('form.sending');
  return (
    <button type="submit" className={className} disabled={busy} aria-busy={busy} name={name} value={value}>
      {busy && <span aria-hidden="true" className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none" />}
      <ButtonLabel>{busy ? t('form.sending') : label}</ButtonLabel>
    </button>
  );
}
