import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '../lib/submission.server.ts';
import { adminLoginForm } from '@velvet/validation/admin';
import { Form, redirect } from 'react-router';
import type { Route } from './+types/admin-login';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { adminToken, safeAdminReturn } from '../lib/admin.server.ts';
import { callApi } from '../lib/api.server.ts';
import { localeContext } from '../lib/context.ts';
import { localizedPath } from '../lib/i18n.ts';
import { pageMeta } from '../lib/meta.ts';
import { adminLogin, adminLogout, getAdminSession } from '../lib/operations.ts';
import { apiFailureMessage } from '../lib/registration-code.server.ts';
import { adminCookie } from '../lib/session.server.ts';
import { useT } from '../lib/use-root.ts';
import { useSubmitting } from '../lib/forms.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = await adminToken({ request, context });
  if (token) {
    const session = await callApi(getAdminSession, {}, { request, context, token });
    if (session.ok && session.data.adminSession) {
      const { prefix } = context.get(localeContext);
      throw redirect(safeAdminReturn(new URL(request.url).searchParams.get('redirectTo'), prefix));
    }
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { prefix } = context.get(localeContext);
  const cookie = adminCookie(context);
  const formData = await request.formData();
  if (formData.get('intent') === 'logout') {
    const token = await adminToken({ request, context });
    if (token) await callApi(adminLogout, {}, { request, context, token });
    throw redirect(localizedPath(prefix, '/admin/login'), { headers: { 'Set-Cookie': await cookie.serialize('', { maxAge: 0 }) } });
  }
  const submission = parseWithZod(formData, { schema: adminLoginForm });
  if (submission.status !== 'success') return { result: submission.reply({ hideFields: ['password'] }), notice: null, attempt: crypto.randomUUID() };
  const result = await callApi(adminLogin, submission.value, { request, context });
  if (!result.ok) return { result: submission.reply({ hideFields: ['password'] }), notice: apiFailureMessage(result.error), attempt: crypto.randomUUID() };
  const { token, userErrors } = result.data.adminLogin;
  if (!token) {
    const formErrors = userErrors.length ? userErrors.map((e) => e.messageId) : ['admin.login.invalid'];
    return { result: submission.reply({ formErrors, hideFields: ['password'] }), notice: null, attempt: crypto.randomUUID() };
  }
  throw redirect(safeAdminReturn(new URL(request.url).searchParams.get('redirectTo'), prefix), {
    headers: { 'Set-Cookie': await cookie.serialize(token) },
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminLogin.title', noIndex: true });

export default function AdminLogin({ actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  const [form, fields] = useForm<{ email: string; password: string }>({ id: 'admin-login', lastResult: actionData?.result });
  const passwordProps = getInputProps(fields.password, { type: 'password' });
  return (
    <div>
      <PageIntro inverse eyebrow={t('brand.name')} title={t('admin.login.title')} />
      <Form method="post" {...getFormProps(form)} noValidate className="mt-10 space-y-6 bg-paper p-8 text-ink">
        {(form.errors?.length || actionData?.notice) && (
          <p role="alert" className="border-l-2 border-alert pl-4 text-sm">
            {actionData?.notice ? t(actionData.notice.id, actionData.notice.values) : form.errors?.map((id) => t(id)).join(' ')}
          </p>
        )}
        <div>
          <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('admin.login.email')}</label>
          <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="username" className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
          <FieldErrors field={fields.email} />
        </div>
        <div>
          <label htmlFor={fields.password.id} className="eyebrow block text-stone">{t('admin.login.password')}</label>
          {/* A new key per answer: the typed password is gone after every attempt. */}
          <input {...passwordProps} key={`${passwordProps.key ?? ''}:${actionData?.attempt ?? ''}`} autoComplete="current-password" className="field-input mt-2" aria-describedby={describedBy(fields.password)} />
          <FieldErrors field={fields.password} />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy}>{t('admin.login.submit')}</button>
      </Form>
    </div>
  );
}
