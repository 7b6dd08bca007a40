import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react';
import { ADMIN_ROLES, newAdminForm } from '@velvet/validation/admin';
import type { AdminRole } from '@velvet/validation/admin';
import { Form } from 'react-router';
import type { Route } from './+types/admin-admins';
import { AdminBar } from '../components/admin-bar.tsx';
import { AdminTable } from '../components/admin-table.tsx';
import type { Notice } from '../components/code-form.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { adminCreate, adminDisable, adminSetRole, adminSetSecurityPolicy, getAdmins } from '../lib/api/operations.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { useT } from '../lib/page/use-root.ts';

/** The owner's page (ADR 045): who may work the door, with which role, and the second-factor policy. */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  const result = await callApi(getAdmins, {}, { ...args, token });
  return {
    email,
    permissions: session.permissions,
    admins: result.ok ? result.data.admins : null,
    requireSecondFactor: result.ok ? result.data.adminSecurityPolicy : false,
    notice: result.ok ? null : apiFailureMessage(result.error),
  };
}

const toRole = (value: FormDataEntryValue | null): Uppercase<AdminRole> | null =>
  typeof value === 'string' && (ADMIN_ROLES as readonly string[]).includes(value) ? (value.toUpperCase() as Uppercase<AdminRole>) : null;

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  const adminId = String(formData.get('adminId') ?? '').slice(0, 64);
  const call = { ...args, token };
  const refused = (userErrors: readonly { messageId: string }[]): { kind: 'notice'; notice: Notice } => ({
    kind: 'notice',
    notice: { id: userErrors[0]?.messageId ?? 'error.generic' },
  });
  if (intent === 'create') {
    const submission = parseWithZod(formData, { schema: newAdminForm });
    if (submission.status !== 'success') return { kind: 'create' as const, result: submission.reply() };
    const created = await callApi(adminCreate, { email: submission.value.email, role: submission.value.role.toUpperCase() as Uppercase<AdminRole> }, call);
    if (!created.ok) return { kind: 'notice' as const, notice: apiFailureMessage(created.error) };
    const { admin, password, userErrors } = created.data.adminCreate;
    if (!admin || !password) {
      const fieldErrors: Record<string, string[]> = {};
      for (const e of userErrors) (fieldErrors[e.field ?? 'email'] ??= []).push(e.messageId);
      return { kind: 'create' as const, result: submission.reply({ fieldErrors }) };
    }
    return { kind: 'created' as const, created: { email: admin.email, password } };
  }
  if (intent === 'role') {
    const role = toRole(formData.get('role'));
    if (!role) return { kind: 'notice' as const, notice: { id: 'validation.role' } };
    const changed = await callApi(adminSetRole, { adminId, role }, call);
    if (!changed.ok) return { kind: 'notice' as const, notice: apiFailureMessage(changed.error) };
    return changed.data.adminSetRole.done ? { kind: 'done' as const } : refused(changed.data.adminSetRole.userErrors);
  }
  if (intent === 'disable') {
    // Destructive: the first post asks, the second (confirmed) does it.
    if (formData.get('confirmed') !== 'yes') return { kind: 'confirm-disable' as const, adminId, email: String(formData.get('email') ?? '').slice(0, 254) };
    const disabled = await callApi(adminDisable, { adminId }, call);
    if (!disabled.ok) return { kind: 'notice' as const, notice: apiFailureMessage(disabled.error) };
    return disabled.data.adminDisable.done ? { kind: 'done' as const } : refused(disabled.data.adminDisable.userErrors);
  }
  const policy = await callApi(adminSetSecurityPolicy, { requireSecondFactor: formData.get('requireSecondFactor') === 'on' }, call);
  return policy.ok ? { kind: 'done' as const } : { kind: 'notice' as const, notice: apiFailureMessage(policy.error) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminAdmins.title', noIndex: true });

type ActionData = Route.ComponentProps['actionData'];

export default function AdminAdmins({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  const notice = loaderData.notice ?? (actionData?.kind === 'notice' ? actionData.notice : null);
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.admins.title')} />
      {notice && <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {loaderData.admins && (
        <>
          {actionData?.kind === 'confirm-disable' && (
            <section role="alertdialog" aria-labelledby="confirm-disable" className="mt-10 bg-paper p-8 text-ink">
              <h2 id="confirm-disable" className="font-display text-2xl">{t('admin.admins.disableQuestion', { email: actionData.email })}</h2>
              <p className="mt-3">{t('admin.admins.disableText')}</p>
              <Form method="post" className="mt-6 flex flex-wrap gap-4">
                <input type="hidden" name="intent" value="disable" />
                <input type="hidden" name="adminId" value={actionData.adminId} />
                <input type="hidden" name="confirmed" value="yes" />
                <button type="submit" className="btn-primary" disabled={busy}>{t('admin.admins.disableConfirm')}</button>
                <a href="?" className="btn-inverse border border-ink">{t('admin.admins.cancel')}</a>
              </Form>
            </section>
          )}
          <AdminTable
            caption={t('admin.admins.title')}
            className="mt-10"
            minWidth="min-w-[40rem]"
            rows={loaderData.admins}
            rowKey={(admin) => admin.id}
            columns={[
              { header: t('admin.login.email'), rowHeader: true, className: 'whitespace-nowrap', cell: (admin) => admin.email },
              {
                header: t('admin.admins.role'),
                cell: (admin) =>
                  admin.disabled ? (
                    t(`admin.roles.${admin.role.toLowerCase()}`)
                  ) : (
                    <Form method="post" className="flex flex-wrap items-center gap-2">
                      <input type="hidden" name="intent" value="role" />
                      <input type="hidden" name="adminId" value={admin.id} />
                      <label className="sr-only" htmlFor={`role-${admin.id}`}>{t('admin.admins.roleOf', { email: admin.email })}</label>
                      <select id={`role-${admin.id}`} name="role" defaultValue={admin.role.toLowerCase()} className="field-input w-auto bg-paper text-ink">
                        {ADMIN_ROLES.map((role) => <option key={role} value={role}>{t(`admin.roles.${role}`)}</option>)}
                      </select>
                      <button type="submit" className="link text-paper" disabled={busy}>{t('admin.admins.change')}</button>
                    </Form>
                  ),
              },
              { header: t('admin.security.secondFactor'), cell: (admin) => t(admin.secondFactorEnabled ? 'admin.admins.on' : 'admin.admins.off') },
              {
                header: t('admin.admins.status'),
                cell: (admin) =>
                  admin.disabled ? (
                    t('admin.admins.disabled')
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="disable" />
                      <input type="hidden" name="adminId" value={admin.id} />
                      <input type="hidden" name="email" value={admin.email} />
                      <button type="submit" className="link text-paper">{t('admin.admins.disable')}</button>
                    </Form>
                  ),
              },
            ]}
          />
          <NewAdmin actionData={actionData} />
          <Form method="post" className="mt-12 bg-paper p-8 text-ink">
            <h2 className="font-display text-2xl">{t('admin.admins.policy')}</h2>
            <input type="hidden" name="intent" value="policy" />
            <label className="mt-4 flex items-start gap-3">
              <input type="checkbox" name="requireSecondFactor" defaultChecked={loaderData.requireSecondFactor} className="mt-1 size-5" />
              <span>{t('admin.admins.requireSecondFactor')}</span>
            </label>
            <button type="submit" className="btn-primary mt-6" disabled={busy}>{t('admin.admins.save')}</button>
          </Form>
        </>
      )}
    </div>
  );
}

function NewAdmin({ actionData }: { actionData: ActionData }) {
  const t = useT();
  const busy = useSubmitting();
  const [form, fields] = useForm<{ email: string; role: string }>({ id: 'new-admin', lastResult: actionData?.kind === 'create' ? actionData.result : undefined });
  return (
    <section aria-labelledby="new-admin-title" className="mt-12 bg-paper p-8 text-ink">
      <h2 id="new-admin-title" className="font-display text-2xl">{t('admin.admins.new')}</h2>
      {actionData?.kind === 'created' ? (
        <div role="status" className="mt-4">
          <p>{t('admin.admins.created', { email: actionData.created.email })}</p>
          <p className="mt-3">
            {t('admin.admins.password')} <code data-testid="new-admin-password" className="font-mono tracking-wider">{actionData.created.password}</code>
          </p>
          <CopyButton value={actionData.created.password} className="btn-primary" />
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate className="mt-6 grid gap-6 sm:grid-cols-2">
          <input type="hidden" name="intent" value="create" />
          <div>
            <label htmlFor={fields.email.id} className="eyebrow block text-stone">{t('admin.login.email')}</label>
            <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="off" className="field-input mt-2" aria-describedby={describedBy(fields.email)} />
            <FieldErrors field={fields.email} />
          </div>
          <div>
            <label htmlFor={fields.role.id} className="eyebrow block text-stone">{t('admin.admins.role')}</label>
            <select {...getSelectProps(fields.role)} className="field-input mt-2" aria-describedby={describedBy(fields.role)}>
              <option value="">{t('admin.admins.chooseRole')}</option>
              {ADMIN_ROLES.map((role) => <option key={role} value={role}>{t(`admin.roles.${role}`)}</option>)}
            </select>
            <FieldErrors field={fields.role} />
          </div>
          <button type="submit" className="btn-primary sm:col-span-2 sm:justify-self-start" disabled={busy}>{t('admin.admins.create')}</button>
        </Form>
      )}
    </section>
  );
}
