import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { suggestEmail } from '@velvet/validation/email-suggestion';
import { emailForm } from '@velvet/validation/registration';
import { data, Form, useSearchParams } from 'react-router';
import type { Route } from './+types/activate-account-error';
import { isFreshProof, readFlow } from '../lib/session.server.ts';
import { EmailSuggestion } from '../components/email-suggestion.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { FormGuard } from '../components/form-guard.tsx';
import { MessageScreen } from '../components/message-screen.tsx';
import { SubmitButton } from '../components/submit-button.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { requestActivationLink } from '../lib/api/operations.ts';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';
import { isScriptedSubmission } from '../lib/forms/form-guard.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { groupFieldErrors } from '../lib/registration/registration-outcome.server.ts';
import { apiFailureMessage, type Notice } from '../lib/registration/registration-code.server.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useT } from '../lib/page/use-root.ts';

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.activateAccountError.title', noIndex: true });

/**
 * Whether the server just sent the visitor here (routes/activate-account.tsx): the proof is
 * spent, so the failure is reported once; a hand-made or reloaded address reports nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { flow, save } = await readFlow(request, context);
  const failure = flow.activationFailure;
  const reported = failure && isFreshProof(failure.at) ? failure.kind : null;
  if (!failure) return data({ reported });
  const { activationFailure: _spent, ...rest } = flow;
  return data({ reported }, { headers: { 'Set-Cookie': await save(rest) } });
}

/**
 * "Send me a new activation link" (UX review of 27 Nov, row 12; ADR 057): the API emails a
 * pending account of the address a fresh link and answers the same for any other address, so
 * the page says the same either way.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: emailForm });
  // "Did you mean …?" comes back with every answer, the sent one too: the link may have gone to a typo (issue 24 §3).
  const typed = formData.get('email');
  const emailSuggestion = typeof typed === 'string' ? suggestEmail(typed) : null;
  if (submission.status !== 'success') return { result: submission.reply(), sentTo: null, notice: null as Notice | null, emailSuggestion };
  const sent = { result: submission.reply({ resetForm: true }), sentTo: submission.value.email, notice: null as Notice | null, emailSuggestion };
  // A script: the same answer a person reads, and nothing sent (ADR 041).
  if (isScriptedSubmission(formData, context)) return sent;
  const result = await callApi(requestActivationLink, { email: submission.value.email, language: context.get(localeContext).locale }, { request, context });
  if (!result.ok) return { result: submission.reply(), sentTo: null, notice: apiFailureMessage(result.error), emailSuggestion };
  const { userErrors, emailSuggestion: answered } = result.data.requestActivationLink;
  if (userErrors.length) {
    const { fieldErrors } = groupFieldErrors(userErrors);
    return { result: submission.reply({ fieldErrors }), sentTo: null, notice: Object.keys(fieldErrors).length ? null : ({ id: 'error.generic' } as Notice), emailSuggestion: answered };
  }
  return { ...sent, emailSuggestion: answered };
}

/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { result: undefined, sentTo: null, notice: CONNECTION_LOST, emailSuggestion: null, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

/**
 * error=invalid: the link is not one of ours; anything else: the attempt failed. Either way the
 * retry the spec's text offers is a fresh link by email, asked for right here, and customer
 * service stays beside it.
 */
export default function ActivateAccountError({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  const [params] = useSearchParams();
  const kind = params.get('error') === 'invalid' ? 'invalidLink' : 'failed';
  const { reported } = loaderData;
  useTrackOnce(reported ? { event: reported === 'invalid' ? 'error_registration_activation_not_found' : 'error_registration_activation_failed' } : null);
  const [form, fields] = useForm<{ email: string }>({ id: 'activation-link', lastResult: actionData?.result });
  return (
    <MessageScreen
      title={t(`activationError.${kind}.title`)}
      text={t(`activationError.${kind}.text`)}
      actions={[{ label: t('activationError.contact'), to: EXTERNAL_LINKS.customerService, external: true, variant: 'outline' }]}
    >
      <section aria-labelledby="activation-link-title" className="mt-10 border border-line p-6 sm:p-8">
        <h2 id="activation-link-title" className="display text-2xl">{t('activationError.resend.title')}</h2>
        <p className="mt-3 leading-relaxed text-stone">{t('activationError.resend.text')}</p>
        {actionData?.sentTo && <p role="status" className="mt-6 border-l-2 border-ink pl-4">{t('activationError.resend.sent', { email: actionData.sentTo })}</p>}
        {actionData?.notice && <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(actionData.notice.id, actionData.notice.values)}</p>}
        <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-6">
          <FormGuard />
          <div>
            <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('registration.email')}</label>
            <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" inputMode="email" className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
            <FieldErrors field={fields.email} />
            <EmailSuggestion inputId={fields.email.id} server={actionData?.emailSuggestion} />
          </div>
          <SubmitButton busy={busy} label={t('activationError.resend.submit')} className="btn-primary w-full sm:w-auto" />
        </Form>
      </section>
    </MessageScreen>
  );
}
