import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { suggestEmail } from '@velvet/validation/email-suggestion';
import { emailForm } from '@velvet/validation/registration';
import { groupFieldErrors } from '../lib/registration/registration-outcome.server.ts';
import { Form, redirect } from 'react-router';
import type { Route } from './+types/membership-interest-apply';
import { EmailSuggestion } from '../components/email-suggestion.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { serverCountry } from '../lib/i18n/country.server.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { applyForMembership } from '../lib/api/operations.ts';
import { apiFailureMessage, type Notice } from '../lib/registration/registration-code.server.ts';
import { readFlow } from '../lib/session.server.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../lib/forms/form-guard.server.ts';
import { FormGuard } from '../components/form-guard.tsx';
import { useT } from '../lib/page/use-root.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** The email is filled in when the visitor already typed it in this visit (no dead ends). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { flow } = await readFlow(request, context);
  return { email: flow.registrationEmail ?? '' };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: emailForm });
  // "Did you mean …?" comes back with any answer that keeps the visitor here (issue 24 §3).
  const typed = formData.get('email');
  const typedSuggestion = typeof typed === 'string' ? suggestEmail(typed) : null;
  if (submission.status !== 'success') return { result: submission.reply(), notice: null as Notice | null, emailSuggestion: typedSuggestion };
  const { locale, prefix } = context.get(localeContext);
  const confirmed = async () => {
    const { flow, save } = await readFlow(request, context);
    return redirect(localizedPath(prefix, '/membership-interest/confirmation'), {
      headers: { 'Set-Cookie': await save({ ...flow, membershipApplicationEmail: submission.value.email }) },
    });
  };
  // A script: the confirmation, as a person would read it, and nothing written (ADR 041).
  if (isScriptedSubmission(formData, context)) throw await confirmed();
  const country = (await serverCountry(request, context)) ?? null;
  const result = await callApi(
    applyForMembership,
    { email: submission.value.email, language: locale, country, proofOfWork: proofOfWorkOf(formData) },
    { request, context },
  );
  if (!result.ok) return { result: submission.reply(), notice: apiFailureMessage(result.error), emailSuggestion: typedSuggestion };
  const { accepted, reapplyAfter, userErrors, emailSuggestion } = result.data.applyForMembership;
  // Declined within the cool-down (ADR 063): told kindly from when, nothing was written.
  if (reapplyAfter) return { result: submission.reply(), notice: { id: 'membershipInterestApply.coolDown', values: { date: Date.parse(reapplyAfter) } } as Notice, emailSuggestion };
  if (!accepted) {
    const { fieldErrors } = groupFieldErrors(userErrors);
    return { result: submission.reply({ fieldErrors }), notice: Object.keys(fieldErrors).length ? null : ({ id: 'error.generic' } as Notice), emailSuggestion };
  }
  throw await confirmed();
}

/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { result: undefined, notice: CONNECTION_LOST, emailSuggestion: null, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.membershipInterestApply.title' });

export default function MembershipInterestApply({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  const [form, fields] = useForm<{ email: string }>({ id: 'apply', lastResult: actionData?.result, defaultValue: { email: loaderData.email } });
  return (
    <div>
      <PageIntro inverse title={t('membershipInterestApply.title')} lead={t('membershipInterestApply.text')} />
      <Form method="post" {...getFormProps(form)} noValidate className="mt-10 space-y-6 bg-paper p-8 text-ink">
        {actionData?.notice &&
          (actionData.notice.id === 'membershipInterestApply.coolDown' ? (
            <p role="status" className="border-l-2 border-ink pl-4 text-sm">{t(actionData.notice.id, actionData.notice.values)}</p>
          ) : (
            <p role="alert" className="border-l-2 border-alert pl-4 text-sm">{t(actionData.notice.id, actionData.notice.values)}</p>
          ))}
        <div>
          <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('membershipInterestApply.email')}</label>
          <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" inputMode="email" className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
          <FieldErrors field={fields.email} />
          <EmailSuggestion inputId={fields.email.id} server={actionData?.emailSuggestion} />
        </div>
        <FormGuard proofOfWork={{ form: 'MEMBERSHIP_INTEREST' }} />
        <p className="text-sm leading-relaxed text-stone">{t('membershipInterestApply.consent')}</p>
        <button type="submit" className="btn-primary w-full" disabled={busy}>{t('membershipInterestApply.submit')}</button>
      </Form>
    </div>
  );
}
