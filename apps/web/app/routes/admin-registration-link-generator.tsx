import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { verdict } from '@velvet/validation/registration-code';
import { accessCodeForm } from '@velvet/validation/registration-code-form';
import { codeErrorsIn } from '@velvet/validation/user-errors';
import { useState } from 'react';
import { Form } from 'react-router';
import type { Route } from './+types/admin-registration-link-generator';
import { AdminBar } from '../components/admin-bar.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { generateRegistrationLink } from '../lib/api/operations.ts';
import { apiFailureMessage, type Notice } from '../lib/registration/registration-code.server.ts';
import { useT } from '../lib/page/use-root.ts';
import { useSubmitting } from '../lib/forms/forms.ts';

export async function loader(args: Route.LoaderArgs) {
  const { email, session } = await requireAdmin(args);
  // Filled in from a code's console page (/admin/codes/:code, ADR 046).
  const code = new URL(args.request.url).searchParams.get('code')?.trim().slice(0, 64) ?? '';
  // Generating links is codes.manage (owner, operator): the API refuses everyone else, the page says so.
  return { email, permissions: session.permissions, code, allowed: session.permissions.includes('codes.manage') };
}

const OPERATOR_MESSAGES: Partial<Record<string, string>> = {
  expired: 'admin.linkGenerator.codeExpired',
  'no-balance': 'admin.linkGenerator.codeNoBalance',
};

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const submission = parseWithZod(await args.request.formData(), { schema: accessCodeForm });
  if (submission.status !== 'success') return { result: submission.reply(), link: null, notice: null };
  const response = await callApi(generateRegistrationLink, { registrationCode: submission.value.code }, { ...args, token });
  if (!response.ok) return { result: submission.reply(), link: null, notice: apiFailureMessage(response.error) };
  const { url, expiresAt, userErrors } = response.data.generateRegistrationLink;
  if (!url || !expiresAt) {
    // One message, written for the operator: the field's own for an unknown code, else why the code cannot be used.
    const refused = verdict(codeErrorsIn(userErrors));
    const fieldMessage = (refused.blocking ? OPERATOR_MESSAGES[refused.reason] : undefined) ?? 'validation.accessCodeInvalid';
    return { result: submission.reply({ fieldErrors: { code: [fieldMessage] } }), link: null, notice: refused.blocking ? null : ({ id: 'error.generic' } as Notice) };
  }
  return { result: submission.reply(), link: { url, expiresAt }, notice: null };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminLinkGenerator.title', noIndex: true });

export default function RegistrationLinkGenerator({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  const [form, { code }] = useForm<{ code: string }>({ id: 'link-generator', lastResult: actionData?.result, defaultValue: { code: loaderData.code } });
  /** Bumped by each submission: the copy button's status starts over. */
  const [copyKey, setCopyKey] = useState(0);
  const link = actionData?.link;
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.linkGenerator.title')} lead={t('admin.linkGenerator.text')} />
      {loaderData.allowed ? (
        <>
          <Form method="post" {...getFormProps(form)} noValidate className="mt-10 space-y-6 bg-paper p-8 text-ink" onSubmit={() => setCopyKey((key) => key + 1)}>
            {actionData?.notice && <p role="alert" className="border-l-2 border-alert pl-4 text-sm">{t(actionData.notice.id, actionData.notice.values)}</p>}
            <div>
              <label htmlFor={code.id} className="eyebrow block text-stone">{t('admin.linkGenerator.code')}</label>
              <input {...getInputProps(code, { type: 'text' })} className="field-input mt-2 uppercase tracking-[0.2em]" autoComplete="off" aria-describedby={describedBy(code)} />
              <FieldErrors field={code} />
            </div>
            <button type="submit" className="btn-primary w-full" disabled={busy}>{t('admin.linkGenerator.submit')}</button>
          </Form>
          {link && (
            <section aria-labelledby="link-title" className="mt-10 border border-paper/40 p-8">
              <h2 id="link-title" className="eyebrow text-paper/70">{t('admin.linkGenerator.result')}</h2>
              <p className="mt-4 font-mono text-sm break-all" data-testid="generated-link">{link.url}</p>
              <p className="mt-2 text-sm text-paper/70">{t('admin.linkGenerator.validUntil', { date: new Date(link.expiresAt) })}</p>
              <CopyButton key={copyKey} value={link.url} />
            </section>
          )}
        </>
      ) : (
        <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t('admin.forbidden')}</p>
      )}
    </div>
  );
}
