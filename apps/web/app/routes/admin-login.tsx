import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { adminLoginForm, adminSecondFactorForm } from '@velvet/validation/admin';
import { Form, redirect } from 'react-router';
import type { Route } from './+types/admin-login';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { adminToken, safeAdminReturn } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { adminLogin, adminLogout, adminVerifySecondFactor, getAdminSession } from '../lib/api/operations.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import type { Notice } from '../components/code-form.tsx';
import { adminCookie } from '../lib/session.server.ts';
import { useT } from '../lib/page/use-root.ts';
import { useSubmitting } from '../lib/forms/forms.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = await adminToken({ request, context });
  if (token) {
    const session = await callApi(getAdminSession, {}, { request, context, token });
    if (session.ok && session.data.adminSession) {
      const { prefix } = context.get(localeContext);
      throw redirect(safeAdminReturn(new URL(request.url).searchParams.get('redirectTo'), prefix, session.data.adminSession.permissions));
    }
  }
  // After a password change every session ended: say why the admin is here again.
  return { passwordChanged: new URL(request.url).searchParams.get('changed') === '1' };
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
  if (formData.get('intent') === 'second-factor') return secondStep({ request, context }, formData);
  const submission = parseWithZod(formData, { schema: adminLoginForm });
  if (submission.status !== 'success') return { result: submission.reply({ hideFields: ['password'] }), notice: null, attempt: crypto.randomUUID() };
  // The console's language: the club writes to this admin in it.
  const result = await callApi(adminLogin, { ...submission.value, language: context.get(localeContext).locale }, { request, context });
  if (!result.ok) return { result: submission.reply({ hideFields: ['password'] }), notice: apiFailureMessage(result.error), attempt: crypto.randomUUID() };
  const { token, secondFactorChallenge, userErrors } = result.data.adminLogin;
  // The password was right and this admin has a second factor: ask for it.
  if (secondFactorChallenge) return { result: submission.reply({ resetForm: true }), notice: null, attempt: crypto.randomUUID(), challenge: secondFactorChallenge };
  if (!token) {
    const formErrors = userErrors.length ? userErrors.map((e) => e.messageId) : ['admin.login.invalid'];
    return { result: submission.reply({ formErrors, hideFields: ['password'] }), notice: null, attempt: crypto.randomUUID() };
  }
  return signedIn({ request, context }, token);
}

/** The second step's refusals after which the password is asked again. */
const SIGN_IN_AGAIN = new Set<string>(['SECOND_FACTOR_EXPIRED', 'SECOND_FACTOR_ATTEMPTS_EXHAUSTED', 'SECOND_FACTOR_LOCKED']);

/** The second step: the authenticator's code (or a recovery code) redeems the password step's challenge. */
async function secondStep({ request, context }: Pick<Route.ActionArgs, 'request' | 'context'>, formData: FormData) {
  const submission = parseWithZod(formData, { schema: adminSecondFactorForm });
  const challenge = String(formData.get('challenge') ?? '').slice(0, 4096);
  const again = (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; notice?: Notice | null }) => ({
    result: submission.reply({ formErrors: options.formErrors, fieldErrors: options.fieldErrors, hideFields: ['code'] }),
    notice: options.notice ?? null,
    attempt: crypto.randomUUID(),
    challenge,
  });
  if (submission.status !== 'success') return again({});
  const result = await callApi(adminVerifySecondFactor, { ...submission.value, language: context.get(localeContext).locale }, { request, context });
  if (!result.ok) return again({ notice: apiFailureMessage(result.error) });
  const { token, userErrors } = result.data.adminVerifySecondFactor;
  if (token) return signedIn({ request, context }, token);
  // The challenge is dead — too late, the password changed meanwhile, five wrong codes, or too many
  // wrong codes lately: back to the password step, with the reason.
  const restart = userErrors.find((e) => SIGN_IN_AGAIN.has(e.code));
  if (restart) {
    return { result: submission.reply({ formErrors: [restart.messageId], resetForm: true }), notice: null, attempt: crypto.randomUUID() };
  }
  return again({ fieldErrors: { code: userErrors.length ? userErrors.map((e) => e.messageId) : ['admin.secondFactor.invalid'] } });
}

async function signedIn({ request, context }: Pick<Route.ActionArgs, 'request' | 'context'>, token: string): Promise<never> {
  const { prefix } = context.get(localeContext);
  // Where this admin starts depends on their role.
  const session = await callApi(getAdminSession, {}, { request, context, token });
  const permissions = session.ok ? (session.data.adminSession?.permissions ?? []) : [];
  throw redirect(safeAdminReturn(new URL(request.url).searchParams.get('redirectTo'), prefix, permissions), {
    headers: { 'Set-Cookie': await adminCookie(context).serialize(token) },
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminLogin.title', noIndex: true });

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  if (actionData && 'challenge' in actionData && actionData.challenge) {
    return <SecondFactorStep challenge={actionData.challenge} actionData={actionData} />;
  }
  return <PasswordStep actionData={actionData} t={t} passwordChanged={!actionData && loaderData.passwordChanged} />;
}

type ActionData = Route.ComponentProps['actionData'];

function Alert({ errors, notice }: { errors?: string[]; notice?: Notice | null }) {
  const t = useT();
  if (!errors?.length && !notice) return null;
  return (
    <p role="alert" className="border-l-2 border-alert pl-4 text-sm">
      {notice ? t(notice.id, notice.values) : errors?.map((id) => t(id)).join(' ')}
    </p>
  );
}

function PasswordStep({ actionData, t, passwordChanged }: { actionData: ActionData; t: ReturnType<typeof useT>; passwordChanged: boolean }) {
  const busy = useSubmitting();
  const [form, fields] = useForm<{ email: string; password: string }>({ id: 'admin-login', lastResult: actionData?.result });
  const passwordProps = getInputProps(fields.password, { type: 'password' });
  return (
    <div>
      <PageIntro inverse title={t('admin.login.title')} />
      <Form method="post" {...getFormProps(form)} noValidate className="mt-10 space-y-6 bg-paper p-8 text-ink">
        <Alert errors={form.errors} notice={actionData?.notice} />
        {passwordChanged && <p role="status" className="border-l-2 border-ink pl-4 text-sm">{t('admin.login.passwordChanged')}</p>}
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

function SecondFactorStep({ challenge, actionData }: { challenge: string; actionData: ActionData }) {
  const t = useT();
  const busy = useSubmitting();
  const [form, fields] = useForm<{ code: string; challenge: string }>({ id: 'admin-second-factor', lastResult: actionData?.result });
  const codeProps = getInputProps(fields.code, { type: 'text' });
  return (
    <div>
      <PageIntro inverse title={t('admin.secondFactor.title')} />
      <Form method="post" {...getFormProps(form)} noValidate className="mt-10 space-y-6 bg-paper p-8 text-ink">
        <Alert errors={form.errors} notice={actionData?.notice} />
        <input type="hidden" name="intent" value="second-factor" />
        <input type="hidden" name="challenge" value={challenge} />
        <div>
          <label htmlFor={fields.code.id} className="eyebrow block text-stone">{t('admin.secondFactor.code')}</label>
          <p id={`${fields.code.id}-hint`} className="mt-2 text-sm text-stone">{t('admin.secondFactor.hint')}</p>
          <input
            {...codeProps}
            key={`${codeProps.key ?? ''}:${actionData?.attempt ?? ''}`}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            autoFocus
            className="field-input mt-2 tracking-widest"
            aria-describedby={`${fields.code.id}-hint ${describedBy(fields.code) ?? ''}`.trim()}
          />
          <FieldErrors field={fields.code} />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy}>{t('admin.secondFactor.submit')}</button>
      </Form>
    </div>
  );
}
