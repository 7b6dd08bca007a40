import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react';
import { CODE_STATES, CODES_PER_BATCH_MAX, CODE_BALANCE_MAX, newCodesForm } from '@velvet/validation/codes';
import { CUSTOMIZATIONS } from '@velvet/validation/customization';
import { useIntl } from 'react-intl';
import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-codes';
import { AdminBar } from '../components/admin-bar.tsx';
import { AdminTable } from '../components/admin-table.tsx';
import { StateLabel } from '../components/code-state.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { createCodes, getCodes, type CodeListing } from '../lib/admin/code-operations.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

const FILTERS = ['code', 'inviter', 'customization', 'slug', 'state'] as const;
type FilterName = (typeof FILTERS)[number];
type StateValue = Uppercase<(typeof CODE_STATES)[number]>;

/**
 * The invitations (ADR 046): every code, newest first, 50 a page with a keyset cursor, searched
 * and filtered on the server; and, for owner and operator (codes.manage), new codes. Everyone
 * may read (acquisition.read); the API refuses changes to the other roles whatever the page shows.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  const search = new URL(args.request.url).searchParams;
  const value = (name: FilterName | 'after') => search.get(name)?.trim().slice(0, 200) || null;
  const filter = Object.fromEntries(FILTERS.map((name) => [name, value(name)])) as Record<FilterName, string | null>;
  const state = (CODE_STATES as readonly string[]).includes(filter.state ?? '') ? (filter.state?.toUpperCase() as StateValue) : null;
  const after = value('after');
  const result = await callApi(getCodes, { filter: { ...filter, state }, after }, { ...args, token });
  return {
    email,
    permissions: session.permissions,
    filter,
    after,
    page: result.ok ? result.data.adminCodes : null,
    notice: result.ok ? null : apiFailureMessage(result.error),
  };
}

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const submission = parseWithZod(await args.request.formData(), { schema: newCodesForm() });
  if (submission.status !== 'success') return { result: submission.reply(), created: null, notice: null };
  const { expiresAt, ...input } = submission.value;
  const response = await callApi(createCodes, { input: { ...input, expiresAt: expiresAt?.toISOString() ?? null } }, { ...args, token });
  if (!response.ok) return { result: submission.reply(), created: null, notice: apiFailureMessage(response.error) };
  const { codes, userErrors } = response.data.adminCreateCodes;
  if (userErrors.length > 0) {
    const fieldErrors: Record<string, string[]> = {};
    for (const e of userErrors) (fieldErrors[e.field ?? 'inviterName'] ??= []).push(e.messageId);
    return { result: submission.reply({ fieldErrors }), created: null, notice: null };
  }
  return { result: submission.reply({ resetForm: true }), created: { inviter: input.inviterName, codes }, notice: null };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'admin.codes.metaTitle', noIndex: true });

export default function AdminCodes({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const intl = useIntl();
  const path = useLocalPath();
  const { filter, page, notice, after } = loaderData;
  const canManage = loaderData.permissions.includes('codes.manage');
  const kept = Object.fromEntries(FILTERS.flatMap((name) => (filter[name] ? [[name, filter[name]]] : [])));
  const next = page?.nextCursor ? `?${new URLSearchParams({ ...kept, after: page.nextCursor }).toString()}` : null;
  const first = after ? `?${new URLSearchParams(kept).toString()}` : null;
  const date = (iso: string | null) => (iso ? intl.formatDate(iso, { dateStyle: 'medium' }) : t('admin.codes.never'));
  const landing = (c: CodeListing) => [c.customization, c.landingSlug ? `/${c.landingSlug}` : null].filter(Boolean).join(' · ') || '—';
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.codes.title')} />
      <p className="mt-4 max-w-2xl text-paper/80">{t('admin.codes.text')}</p>
      <Form method="get" className="mt-10 grid gap-6 bg-paper p-8 text-ink sm:grid-cols-2" aria-label={t('admin.codes.filter.title')}>
        <div>
          <label htmlFor="codes-code" className="eyebrow block text-stone">{t('admin.codes.filter.code')}</label>
          <input id="codes-code" name="code" defaultValue={filter.code ?? ''} autoCapitalize="characters" spellCheck={false} className="field-input mt-2 font-mono" />
        </div>
        <div>
          <label htmlFor="codes-inviter" className="eyebrow block text-stone">{t('admin.codes.filter.inviter')}</label>
          <input id="codes-inviter" name="inviter" defaultValue={filter.inviter ?? ''} className="field-input mt-2" />
        </div>
        <div>
          <label htmlFor="codes-customization" className="eyebrow block text-stone">{t('admin.codes.filter.customization')}</label>
          <select id="codes-customization" name="customization" defaultValue={filter.customization ?? ''} className="field-input mt-2">
            <option value="">{t('admin.codes.filter.any')}</option>
            {CUSTOMIZATIONS.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="codes-slug" className="eyebrow block text-stone">{t('admin.codes.filter.slug')}</label>
          <input id="codes-slug" name="slug" defaultValue={filter.slug ?? ''} spellCheck={false} className="field-input mt-2" />
        </div>
        <div>
          <label htmlFor="codes-state" className="eyebrow block text-stone">{t('admin.codes.filter.state')}</label>
          <select id="codes-state" name="state" defaultValue={filter.state ?? ''} className="field-input mt-2">
            <option value="">{t('admin.codes.filter.any')}</option>
            {[...CODE_STATES].reverse().map((s) => <option key={s} value={s}>{t(`admin.codes.state.${s}`)}</option>)}
          </select>
        </div>
        <div className="flex flex-wrap items-center gap-6 sm:col-span-2">
          <button type="submit" className="btn-primary">{t('admin.codes.search')}</button>
          {Object.keys(kept).length > 0 && <Link to={path('/admin/codes')} className="link">{t('admin.codes.reset')}</Link>}
        </div>
      </Form>
      {notice && <p role="alert" className="mt-10 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {page && (
        // On a wide screen the list takes more than the layout's column, so every column shows.
        <AdminTable
          caption={t('admin.codes.title')}
          className="mt-10 lg:-mx-32"
          minWidth="min-w-[36rem]"
          rows={page.codes}
          rowKey={(c) => c.code}
          empty={t('admin.codes.empty')}
          columns={[
            {
              header: t('admin.codes.col.code'),
              rowHeader: true,
              className: 'font-mono',
              cell: (c) => <Link to={path(`/admin/codes/${c.code}`)} className="link text-paper">{c.code}</Link>,
            },
            { header: t('admin.codes.col.inviter'), className: 'break-words', cell: (c) => c.inviterName },
            { header: t('admin.codes.filter.state'), cell: (c) => <StateLabel state={c.state} replaced={c.replaced} /> },
            { header: t('admin.codes.col.balance'), numeric: true, cell: (c) => intl.formatNumber(c.balance) },
            { header: t('admin.codes.col.pending'), numeric: true, cell: (c) => intl.formatNumber(c.pending) },
            { header: t('admin.codes.col.expires'), className: 'whitespace-nowrap', cell: (c) => date(c.expiresAt) },
            { header: t('admin.codes.col.landing'), cell: (c) => landing(c) },
          ]}
        >
          <div className="mt-8 flex flex-wrap gap-4">
            {first && <Link to={first} className="btn-inverse inline-block">{t('admin.codes.first')}</Link>}
            {next && <Link to={next} className="btn-inverse inline-block">{t('admin.codes.next')}</Link>}
          </div>
        </AdminTable>
      )}
      {canManage && <NewCodes actionData={actionData} />}
    </div>
  );
}

function NewCodes({ actionData }: { actionData: Route.ComponentProps['actionData'] }) {
  const t = useT();
  const path = useLocalPath();
  const busy = useSubmitting();
  const [form, fields] = useForm<Record<string, string>>({ id: 'new-codes', lastResult: actionData?.result, shouldRevalidate: 'onBlur' });
  const created = actionData?.created;
  return (
    <section aria-labelledby="new-codes-title" className="mt-12 bg-paper p-8 text-ink">
      <h2 id="new-codes-title" className="font-display text-2xl">{t('admin.codes.new.title')}</h2>
      <p className="mt-2 text-stone">{t('admin.codes.new.text')}</p>
      {actionData?.notice && <p role="alert" className="mt-4 border-l-2 border-alert pl-4 text-sm">{t(actionData.notice.id, actionData.notice.values)}</p>}
      {created && (
        <div className="mt-6 border-l-2 border-ink pl-4">
          <p role="status">{t('admin.codes.new.created', { inviter: created.inviter })}</p>
          <ul className="mt-2 flex flex-wrap gap-x-5 gap-y-1 font-mono" data-testid="new-codes">
            {created.codes.map((code) => <li key={code}><Link to={path(`/admin/codes/${code}`)} className="link">{code}</Link></li>)}
          </ul>
          <CopyButton key={created.codes.join()} value={created.codes.join('\n')} label="admin.codes.copyCodes" className="btn-primary" />
        </div>
      )}
      <Form method="post" {...getFormProps(form)} noValidate className="mt-6 grid gap-6 sm:grid-cols-2">
        <div>
          <label htmlFor={fields.inviterName?.id} className="eyebrow block text-stone">{t('admin.codes.filter.inviter')}</label>
          <input {...getInputProps(fields.inviterName!, { type: 'text' })} autoComplete="off" className="field-input mt-2" aria-describedby={describedBy(fields.inviterName!)} />
          <FieldErrors field={fields.inviterName!} />
        </div>
        <div>
          <label htmlFor={fields.count?.id} className="eyebrow block text-stone">{t('admin.codes.new.count')}</label>
          <input {...getInputProps(fields.count!, { type: 'number' })} min={1} max={CODES_PER_BATCH_MAX} placeholder="1" className="field-input mt-2" aria-describedby={describedBy(fields.count!)} />
          <FieldErrors field={fields.count!} />
        </div>
        <div>
          <label htmlFor={fields.balance?.id} className="eyebrow block text-stone">{t('admin.codes.new.balance')}</label>
          <input {...getInputProps(fields.balance!, { type: 'number' })} min={0} max={CODE_BALANCE_MAX} className="field-input mt-2" aria-describedby={describedBy(fields.balance!)} />
          <FieldErrors field={fields.balance!} />
        </div>
        <div>
          <label htmlFor={fields.expiresAt?.id} className="eyebrow block text-stone">{t('admin.codes.new.expires')}</label>
          <input {...getInputProps(fields.expiresAt!, { type: 'date' })} className="field-input mt-2" aria-describedby={describedBy(fields.expiresAt!)} />
          <FieldErrors field={fields.expiresAt!} />
        </div>
        <div>
          <label htmlFor={fields.customization?.id} className="eyebrow block text-stone">{t('admin.codes.new.customization')}</label>
          <select {...getSelectProps(fields.customization!)} className="field-input mt-2" aria-describedby={describedBy(fields.customization!)}>
            <option value="">—</option>
            {CUSTOMIZATIONS.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
          <FieldErrors field={fields.customization!} />
        </div>
        <div>
          <label htmlFor={fields.landingSlug?.id} className="eyebrow block text-stone">{t('admin.codes.new.slug')}</label>
          <input {...getInputProps(fields.landingSlug!, { type: 'text' })} spellCheck={false} className="field-input mt-2" aria-describedby={describedBy(fields.landingSlug!)} />
          <FieldErrors field={fields.landingSlug!} />
        </div>
        <div>
          <label htmlFor={fields.code?.id} className="eyebrow block text-stone">{t('admin.codes.new.code')}</label>
          <input {...getInputProps(fields.code!, { type: 'text' })} autoCapitalize="characters" spellCheck={false} className="field-input mt-2 font-mono" aria-describedby={describedBy(fields.code!)} />
          <FieldErrors field={fields.code!} />
        </div>
        <label className="flex items-start gap-3 sm:col-span-2">
          <input type="checkbox" name="requiresValidityTimestamp" className="mt-1 size-5" />
          <span>{t('admin.codes.new.linkOnly')}</span>
        </label>
        <button type="submit" className="btn-primary sm:col-span-2 sm:justify-self-start" disabled={busy} aria-busy={busy}>{t('admin.codes.new.submit')}</button>
      </Form>
    </section>
  );
}
