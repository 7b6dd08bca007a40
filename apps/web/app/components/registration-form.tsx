import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { GENDERS } from '@velvet/validation/registration-options';
import { type RegistrationStep } from '@velvet/validation/registration-steps';
import { useState, useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { browserCountry } from '../lib/i18n/country.ts';
import { Form } from 'react-router';
import { trackStep } from '../lib/analytics/analytics.ts';
import { BACK_BUTTON, clientValidation, loadClientValidation } from '../lib/forms/client-validation.ts';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { LEGAL_VERSIONS_FIELD, legalVersionsValue, type LegalVersions } from '../lib/registration/legal-versions.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { useT } from '../lib/page/use-root.ts';
import { EmailSuggestion } from './email-suggestion.tsx';
import { describedBy, FieldErrors } from './field.tsx';
import { FormGuard } from './form-guard.tsx';
import { SubmitButton } from './submit-button.tsx';

/** A country the form offers, with the legal documents the page shows for it, named and ordered in the page's language by the server (`namedCountries`). */
export type CountryOption = LegalVersions & { name: string };

interface Values {
  email: string;
  gender: string;
  firstName: string;
  lastName: string;
  country: string;
  newsletter: string;
  termsAccepted: string;
}

/**
 * The registration form: one step, or the lean flow's two steps. The shared schema runs in
 * the browser (errors as the visitor types; loaded when the person starts on the form) and
 * again in the action, so messages and behaviour are the same without JavaScript.
 */
export function RegistrationForm({
  step,
  countries,
  defaults,
  lastResult,
  action,
  detectCountryInBrowser = false,
  invitation,
  stickySubmit = false,
  emailSuggestion,
}: {
  step: RegistrationStep;
  countries: CountryOption[];
  defaults: Partial<Values>;
  lastResult?: SubmissionResult<string[]> | undefined;
  action?: string;
  /** The server found no country: try the browser's time zone before the default. */
  detectCountryInBrowser?: boolean;
  /** The invitation registered with: a personal invitation's signed link needs no proof of work (ADR 041). */
  invitation?: { code: string; validityTimestamp: string | null } | null | undefined;
  /** The submit button sticks to the foot of a scrolling dialog on a phone (the pop-up). */
  stickySubmit?: boolean;
  /** The server's "did you mean …?" for the address of the last submission (issue 24 §3). */
  emailSuggestion?: string | null | undefined;
}) {
  const t = useT();
  const busy = useSubmitting(step);
  const [form, fields] = useForm<Values>({
    id: `registration-${step}`,
    lastResult,
    defaultValue: defaults,
    shouldRevalidate: 'onInput',
    // The action's schema, in the browser too: errors update as the visitor types, no round trip.
    onValidate: clientValidation<Values>((rules) => rules.registrationSteps[step]),
    // Called for a valid submission only: the funnel's "submitting an e-mail" / "submitting step 2".
    onSubmit: (_event, { submission, formData }) => {
      if (submission?.status !== 'success' || formData.has(BACK_BUTTON)) return;
      if (step === 'lean-2') trackStep({ event: 'step2_submitted', flow: 'leanStep2' });
      else trackStep({ event: 'email_submitted', flow: step === 'lean-1' ? 'leanStep1' : 'default', emailHash: submission.value.email });
    },
  });
  const country = useCountryChoice(fields.country, countries, detectCountryInBrowser);
  const asksEmail = step !== 'lean-2';
  const asksNames = step !== 'lean-1';
  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className="space-y-6">
      <input type="hidden" name="intent" value={step} />
      {/* Step 1 of the lean flow sends nothing anywhere; the step that registers asks the proof. */}
      <FormGuard
        proofOfWork={step === 'lean-1' ? undefined : { form: 'REGISTRATION', registrationCode: invitation?.code, validityTimestamp: invitation?.validityTimestamp }}
        prepare={loadClientValidation}
      />
      {form.errors?.length ? (
        <p role="alert" className="border-l-2 border-alert pl-4 text-sm">
          {form.errors.map((id) => t(id))}
        </p>
      ) : null}
      {asksNames && (
        <>
          <GenderField field={fields.gender} />
          <NameFields firstName={fields.firstName} lastName={fields.lastName} />
        </>
      )}
      {asksEmail && (
        <>
          <div>
            <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('registration.email')}</label>
            <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" inputMode="email" className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
            <FieldErrors field={fields.email} />
            <EmailSuggestion inputId={fields.email.id} server={emailSuggestion} />
          </div>
          <CountryField field={fields.country} countries={countries} choice={country} />
          <ConsentFields newsletter={fields.newsletter} termsAccepted={fields.termsAccepted} country={country.option} countries={countries} />
        </>
      )}
      {step === 'lean-2' ? (
        // Back keeps what was typed here (the action saves it in the flow) and returns to step 1.
        // The last step registers, and its button says so (UX review of 27 Nov, row 20).
        <div className="grid grid-cols-2 gap-4">
          <button type="submit" name={BACK_BUTTON} value="1" formNoValidate className="btn-outline w-full" disabled={busy}>
            {t('registration.back')}
          </button>
          <SubmitButton busy={busy} label={t('registration.submit')} />
        </div>
      ) : (
        // In the pop-up the button stays in reach at the foot of the dialog while the form scrolls (row 11).
        <div className={stickySubmit ? 'sticky -bottom-5 -mx-5 -mb-5 border-t border-line bg-paper px-5 py-4 sm:static sm:m-0 sm:border-0 sm:p-0' : undefined}>
          <SubmitButton busy={busy} label={t(step === 'one-step' ? 'registration.submit' : 'registration.continue')} />
        </div>
      )}
    </Form>
  );
}

const noSubscription = () => () => {};

/**
 * The country field's value, derived rather than synced: the visitor's own choice, else the
 * country of the browser's time zone when the server found none (spec §9's fallback order),
 * else the server's default. The time zone is read during render (undefined on the server,
 * so hydration matches; React renders once more with the browser's answer), and nothing is
 * written back into the form: the select is controlled by this value.
 */
export function useCountryChoice(field: FieldMetadata<string>, countries: CountryOption[], detectInBrowser: boolean) {
  const [chosen, setChosen] = useState<string | undefined>();
  const fromTimeZone = useSyncExternalStore(
    noSubscription,
    () => (detectInBrowser ? browserCountry() : undefined),
    () => undefined,
  );
  const offered = (code: string | undefined) => (code && countries.some((c) => c.isoCode === code) ? code : undefined);
  const value = offered(chosen) ?? offered(fromTimeZone) ?? offered(field.initialValue) ?? countries[0]?.isoCode ?? '';
  return { value, option: countries.find((c) => c.isoCode === value), choose: setChosen };
}

export type CountryChoice = ReturnType<typeof useCountryChoice>;

/** Ms/Mrs or Mr (spec §2). */
export function GenderField({ field }: { field: FieldMetadata<string> }) {
  const t = useT();
  return (
    <fieldset aria-describedby={describedBy(field)}>
      <legend className="eyebrow text-stone">{t('registration.gender.legend')}</legend>
      <div className="mt-3 flex gap-8">
        {GENDERS.map((value) => (
          <label key={value} className="flex min-h-11 cursor-pointer items-center gap-3">
            <input
              type="radio"
              name={field.name}
              value={value}
              defaultChecked={field.initialValue === value}
              aria-invalid={field.errors?.length ? true : undefined}
              className="choice-input"
            />
            {t(value === 'FEMALE' ? 'registration.gender.female' : 'registration.gender.male')}
          </label>
        ))}
      </div>
      <FieldErrors field={field} />
    </fieldset>
  );
}

/** First and last name, side by side; either may be left out (the social step asks only what is missing). */
export function NameFields({ firstName, lastName }: { firstName?: FieldMetadata<string> | undefined; lastName?: FieldMetadata<string> | undefined }) {
  const t = useT();
  if (!firstName && !lastName) return null;
  return (
    <div className="grid gap-6 sm:grid-cols-2">
      {firstName && (
        <div>
          <label htmlFor={firstName.id} className="eyebrow block text-stone">{t('registration.firstName')}</label>
          <input {...getInputProps(firstName, { type: 'text' })} autoComplete="given-name" className="field-input mt-2" aria-describedby={describedBy(firstName)} />
          <FieldErrors field={firstName} />
        </div>
      )}
      {lastName && (
        <div>
          <label htmlFor={lastName.id} className="eyebrow block text-stone">{t('registration.lastName')}</label>
          <input {...getInputProps(lastName, { type: 'text' })} autoComplete="family-name" className="field-input mt-2" aria-describedby={describedBy(lastName)} />
          <FieldErrors field={lastName} />
        </div>
      )}
    </div>
  );
}

/** The countries the invitation's code offers, by name in the page's language. */
export function CountryField({ field, countries, choice }: { field: FieldMetadata<string>; countries: CountryOption[]; choice: CountryChoice }) {
  const t = useT();
  // Controlled by the derived choice (useCountryChoice), so Conform's defaultValue is left out.
  const { defaultValue: _defaultValue, key: _key, ...selectProps } = getSelectProps(field);
  return (
    <div>
      <label htmlFor={field.id} className="eyebrow block text-stone">{t('registration.country')}</label>
      <select
        {...selectProps}
        value={choice.value}
        onChange={(event) => choice.choose(event.currentTarget.value)}
        autoComplete="country"
        className="field-input mt-2"
        aria-describedby={describedBy(field)}
      >
        {countries.map((c) => (
          <option key={c.isoCode} value={c.isoCode}>{c.name}</option>
        ))}
      </select>
      <FieldErrors field={field} />
    </div>
  );
}

/**
 * Newsletter (optional; its short text as the label, the long one in a disclosure that also
 * describes the box) and the terms and privacy policy in the versions of `country`; the
 * versions of every offered country go back with the form (lib/registration/legal-versions.ts).
 */
export function ConsentFields({
  newsletter,
  termsAccepted,
  country,
  countries,
}: {
  newsletter: FieldMetadata<string>;
  termsAccepted: FieldMetadata<string>;
  country: CountryOption | undefined;
  countries: CountryOption[];
}) {
  const t = useT();
  const intl = useIntl();
  return (
    <div className="space-y-4 text-sm leading-relaxed">
      {countries.map((option) => (
        <input key={option.isoCode} type="hidden" name={LEGAL_VERSIONS_FIELD} value={legalVersionsValue(option)} />
      ))}
      {/* The newsletter's short text labels the box; the long one describes it and opens below it (spec §3). */}
      <div>
        <label className="flex cursor-pointer gap-3">
          <input {...getInputProps(newsletter, { type: 'checkbox' })} className="choice-input mt-0.5" aria-describedby={`${newsletter.id}-long`} />
          <span>{t('registration.newsletter')}</span>
        </label>
        <details className="mt-1 pl-8 text-stone">
          <summary className="cursor-pointer py-2 text-ink underline decoration-1 underline-offset-4">{t('registration.newsletterMore')}</summary>
          <p id={`${newsletter.id}-long`} className="mt-1">{t('registration.newsletterLong')}</p>
        </details>
      </div>
      <div>
        <label className="flex cursor-pointer gap-3">
          <input {...getInputProps(termsAccepted, { type: 'checkbox' })} className="choice-input mt-0.5" aria-describedby={describedBy(termsAccepted)} />
          <span>
            {intl.formatMessage(
              { id: 'registration.terms' },
              {
                terms: (chunks) => (
                  <a className="link" href={`${EXTERNAL_LINKS.terms}?version=${encodeURIComponent(country?.termsPkString ?? '')}`} target="_blank" rel="noopener">
                    {chunks}
                  </a>
                ),
                privacy: (chunks) => (
                  <a className="link" href={`${EXTERNAL_LINKS.privacy}?version=${encodeURIComponent(country?.dataPolicyPkString ?? '')}`} target="_blank" rel="noopener">
                    {chunks}
                  </a>
                ),
              },
            )}
          </span>
        </label>
        <FieldErrors field={termsAccepted} />
      </div>
    </div>
  );
}
