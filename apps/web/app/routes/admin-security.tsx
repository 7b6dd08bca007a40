import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { ADMIN_PASSWORD_MIN_LENGTH, changePasswordForm, secondFactorSetupForm } from '@velvet/validation/admin';
import { Form, redirect } from 'react-router';
import { renderSVG } from 'uqr';
import type { Route } from './+types/admin-security';
import { AdminBar } from '../components/admin-bar.tsx';
import type { Notice } from '../components/code-form.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { adminChangePassword, adminConfirmSecondFactorSetup, adminStartSecondFactorSetup } from '../lib/api/operations.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { adminCookie } from '../lib/session.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { useT } from '../lib/page/use-root.ts';

/** The signed-in admin's own security: their role, their second factor, their password (ADR 045). */
export async function loader(args: Route.LoaderArgs) {
  const { email, session } = await requireAdmin(args);
  return { email, permissions: session.permissions, role: session.role, secondFactorEnabled: session.secondFactorEnabled, secondFactorRequired: session.secondFactorRequired };
}

interface Setup {
  secret: string;
  setupToken: string;
  uri: string;
  /** The otpauth URI as a QR code (SVG markup made on the server from our own data). */
  qr: string;
}

/** Every user error that names a field, by that field (this page's forms show each beside its field). */
function byField(userErrors: readonly { field: string | null; messageId: string }[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const { field, messageId } of userErrors) if (field) (fields[field] ??= []).push(messageId);
  return fields;
}

const qrOf = (uri: string) => renderSVG(uri, { pixelSize: 6, whiteColor: '#ffffff', blackColor: '#000000' });

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  if (intent === 'start') {
    const started = await callApi(adminStartSecondFactorSetup, {}, { ...args, token });
    if (!started.ok) return { kind: 'notice' as const, notice: apiFailureMessage(started.error) };
    const { secret, uri, setupToken } = started.data.adminStartSecondFactorSetup;
    return { kind: 'setup' as const, setup: { secret, setupToken, uri, qr: qrOf(uri) } satisfies Setup, result: undefined };
  }
  if (intent === 'confirm') {
    const submission = parseWithZod(formData, { schema: secondFactorSetupForm });
    const setupToken = String(formData.get('setupToken') ?? '').slice(0, 4096);
    // The same set-up again, from the otpauth URI the form carried (only ever one of ours).
    const uri = String(formData.get('uri') ?? '').slice(0, 512);
    const secret = uri.startsWith('otpauth://totp/') ? (new URL(uri).searchParams.get('secret') ?? '') : '';
    const again = (fieldErrors?: Record<string, string[]>, notice?: Notice | null) => ({
      kind: 'setup' as const,
      setup: { secret, setupToken, uri, qr: secret ? qrOf(uri) : '' } satisfies Setup,
      result: submission.reply({ fieldErrors, hideFields: ['code'] }),
      notice: notice ?? null,
    });
    if (submission.status !== 'success') return again();
    const confirmed = await callApi(adminConfirmSecondFactorSetup, { setupToken: submission.value.setupToken, code: submission.value.code }, { ...args, token });
    if (!confirmed.ok) return again(undefined, apiFailureMessage(confirmed.error));
    const { recoveryCodes, userErrors } = confirmed.data.adminConfirmSecondFactorSetup;
    if (userErrors.length) return again(byField(userErrors), userErrors.find((e) => e.field === null || e.field === 'setupToken') ? { id: userErrors[0]!.messageId } : null);
    return { kind: 'recovery' as const, recoveryCodes };
  }
  const submission = parseWithZod(formData, { schema: changePasswordForm });
  if (submission.status !== 'success') return { kind: 'password' as const, result: submission.reply({ hideFields: ['currentPassword', 'newPassword'] }) };
  const changed = await callApi(adminChangePassword, submission.value, { ...args, token });
  if (!changed.ok) return { kind: 'password' as const, result: submission.reply({ hideFields: ['currentPassword', 'newPassword'] }), notice: apiFailureMessage(changed.error) };
  const { done, userErrors } = changed.data.adminChangePassword;
  if (!done) {
    return { kind: 'password' as const, result: submission.reply({ fieldErrors: byField(userErrors), hideFields: ['currentPassword', 'newPassword'] }) };
  }
  // Every session of this admin ended with the change: sign in again with the new password.
  const { prefix } = args.context.get(localeContext);
  throw redirect(localizedPath(prefix, '/admin/login', 'changed=1'), { headers: { 'Set-Cookie': await adminCookie(args.context).serialize('', { maxAge: 0 }) } });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminSecurity.title', noIndex: true });

export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse eyebrow={t('admin.security.role', { role: t(`admin.roles.${loaderData.role.toLowerCase()}`) })} title={t('admin.security.title')} />
      {loaderData.secondFactorRequired && (
        <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t('admin.security.required')}</p>
      )}
      <section aria-labelledby="second-factor" className="mt-12 bg-paper p-8 text-ink">
        <h2 id="second-factor" className="font-display text-2xl">{t('admin.security.secondFactor')}</h2>
        <p className="mt-3">{t(loaderData.secondFactorEnabled ? 'admin.security.secondFactorOn' : 'admin.security.secondFactorOff')}</p>
        {actionData?.kind === 'recovery' ? (
          <RecoveryCodes codes={actionData.recoveryCodes} />
        ) : actionData?.kind === 'setup' ? (
          <SetupForm setup={actionData.setup} actionData={actionData} />
        ) : (
          <Form method="post" className="mt-6">
            {actionData?.kind === 'notice' && actionData.notice && <p role="alert" className="mb-4 border-l-2 border-alert pl-4 text-sm">{t(actionData.notice.id, actionData.notice.values)}</p>}
            <input type="hidden" name="intent" value="start" />
            <button type="submit" className="btn-primary">{t(loaderData.secondFactorEnabled ? 'admin.security.replace' : 'admin.security.start')}</button>
          </Form>
        )}
      </section>
      <PasswordForm actionData={actionData?.kind === 'password' ? actionData : undefined} />
    </div>
  );
}

type ActionData = Route.ComponentProps['actionData'];

function SetupForm({ setup, actionData }: { setup: Setup; actionData: ActionData }) {
  const t = useT();
  const busy = useSubmitting();
  const [form, fields] = useForm<{ code: string }>({ id: 'second-factor-setup', lastResult: actionData && 'result' in actionData ? actionData.result : undefined });
  const codeProps = getInputProps(fields.code, { type: 'text' });
  const notice = actionData && 'notice' in actionData ? actionData.notice : null;
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-6">
      {notice && <p role="alert" className="border-l-2 border-alert pl-4 text-sm">{t(notice.id, notice.values)}</p>}
      <p>{t('admin.security.scan')}</p>
      <figure className="w-fit border border-ink p-3">
        <div role="img" aria-label={t('admin.security.qr')} className="size-48 [&>svg]:size-full" dangerouslySetInnerHTML={{ __html: setup.qr }} />
      </figure>
      <p>
        {t('admin.security.secret')} <code data-testid="totp-secret" className="break-all font-mono tracking-wider">{setup.secret}</code>
      </p>
      <input type="hidden" name="intent" value="confirm" />
      <input type="hidden" name="setupToken" value={setup.setupToken} />
      <input type="hidden" name="uri" value={setup.uri} />
      <div>
        <label htmlFor={fields.code.id} className="eyebrow block text-stone">{t('admin.secondFactor.code')}</label>
        <input
          {...codeProps}
          key={`${codeProps.key ?? ''}:${setup.setupToken.slice(-8)}`}
          inputMode="numeric"
          autoComplete="one-time-code"
          className="field-input mt-2 tracking-widest"
          aria-describedby={describedBy(fields.code)}
        />
        <FieldErrors field={fields.code} />
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>{t('admin.security.confirm')}</button>
    </Form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const t = useT();
  return (
    <div className="mt-6">
      <p role="status" className="font-medium">{t('admin.security.enabled')}</p>
      <h3 className="mt-6 font-display text-xl">{t('admin.security.recoveryTitle')}</h3>
      <p className="mt-2">{t('admin.security.recoveryText')}</p>
      <ul data-testid="recovery-codes" className="mt-4 grid grid-cols-1 gap-2 font-mono tracking-wider sm:grid-cols-2">
        {codes.map((code) => <li key={code}>{code}</li>)}
      </ul>
      <CopyButton value={codes.join('\n')} label="admin.security.copyCodes" className="btn-primary" />
    </div>
  );
}

function PasswordForm({ actionData }: { actionData?: Extract<ActionData, { kind: 'password' }> }) {
  const t = useT();
  const busy = useSubmitting();
  const [form, fields] = useForm<{ currentPassword: string; newPassword: string }>({ id: 'change-password', lastResult: actionData?.result });
  const notice = actionData && 'notice' in actionData ? actionData.notice : null;
  return (
    <section aria-labelledby="password" className="mt-12 bg-paper p-8 text-ink">
      <h2 id="password" className="font-display text-2xl">{t('admin.security.password')}</h2>
      <p className="mt-3">{t('admin.security.passwordText', { min: String(ADMIN_PASSWORD_MIN_LENGTH) })}</p>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-6">
        {notice && <p role="alert" className="border-l-2 border-alert pl-4 text-sm">{t(notice.id, notice.values)}</p>}
        <input type="hidden" name="intent" value="password" />
        <div>
          <label htmlFor={fields.currentPassword.id} className="eyebrow block text-stone">{t('admin.security.currentPassword')}</label>
          <input {...getInputProps(fields.currentPassword, { type: 'password' })} autoComplete="current-password" className="field-input mt-2" aria-describedby={describedBy(fields.currentPassword)} />
          <FieldErrors field={fields.currentPassword} />
        </div>
        <div>
          <label htmlFor={fields.newPassword.id} className="eyebrow block text-stone">{t('admin.security.newPassword')}</label>
          <input {...getInputProps(fields.newPassword, { type: 'password' })} autoComplete="new-password" className="field-input mt-2" aria-describedby={describedBy(fields.newPassword)} />
          <FieldErrors field={fields.newPassword} />
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>{t('admin.security.changePassword')}</button>
      </Form>
    </section>
  );
}
