/**
 * The registration form in a dialog on the landing page (the popup variant,
 * `registrationFormFinishedInPopup`). Its own chunk: the landing page loads it only when
 * the visitor heads for it, so the form's validation rules (Zod) stay out of the
 * landing page's first load.
 */
import type { SubmissionResult } from '@conform-to/react';
import type { Notice } from './code-form.tsx';
import { Modal } from './modal.tsx';
import { RegistrationForm, type CountryOption } from './registration-form.tsx';
import { useT } from '../lib/page/use-root.ts';

export default function PopupRegistration({
  open,
  onClose,
  countries,
  defaultCountry,
  detectCountryInBrowser,
  result,
  invitation,
}: {
  open: boolean;
  onClose: () => void;
  countries: CountryOption[];
  defaultCountry: string;
  detectCountryInBrowser: boolean;
  result: { result: SubmissionResult<string[]>; notice?: Notice | undefined; emailSuggestion?: string | null } | null;
  invitation: { code: string; validityTimestamp: string | null } | null;
}) {
  const t = useT();
  return (
    <Modal open={open} onClose={onClose} labelledBy="popup-form-title">
      <h2 id="popup-form-title" className="display text-2xl sm:text-3xl">{t('registration.title')}</h2>
      {result?.notice && (
        <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(result.notice.id, result.notice.values)}</p>
      )}
      <div className="mt-4 sm:mt-6">
        <RegistrationForm
          step="one-step"
          countries={countries}
          defaults={{ country: defaultCountry }}
          detectCountryInBrowser={detectCountryInBrowser}
          lastResult={result?.result}
          emailSuggestion={result?.emailSuggestion}
          invitation={invitation}
          stickySubmit
        />
      </div>
    </Modal>
  );
}
