import { OUTBOX_STATUSES, outboxRetryForm } from '@velvet/validation/admin-ops';
import type { OutboxStatusName } from '@velvet/validation/admin-ops';
import { useIntl } from 'react-intl';
import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-outbox';
import { AdminBar } from '../components/admin-bar.tsx';
import { AdminTable } from '../components/admin-table.tsx';
import type { Notice } from '../components/code-form.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { getOutbox, retryOutbox } from '../lib/admin/admin-ops-operations.ts';
import { callApi } from '../lib/api/api.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { useT } from '../lib/page/use-root.ts';

const isStatus = (value: string | null): value is OutboxStatusName => (OUTBOX_STATUSES as readonly string[]).includes(value ?? '');

/**
 * The outbox (ADR 049): every email's status, attempts and last error, newest first, 50 a page
 * (keyset), by status; failed or waiting emails can be sent again, one or many, after a
 * confirmation. Emails are named by id, never by address. Reading: everyone; retry: outbox.manage.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  const search = new URL(args.request.url).searchParams;
  const status = search.get('status');
  const after = search.get('after')?.slice(0, 200) || null;
  const filter = isStatus(status) ? status : null;
  const result = await callApi(getOutbox, { status: filter ? (filter.toUpperCase() as Uppercase<OutboxStatusName>) : null, after }, { ...args, token });
  return {
    email,
    permissions: session.permissions,
    status: filter,
    after,
    page: result.ok ? result.data.adminOutbox : null,
    notice: result.ok ? null : apiFailureMessage(result.error),
  };
}

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const one = formData.get('one');
  const ids = typeof one === 'string' && one ? [one] : formData.getAll('ids').map(String);
  const parsed = outboxRetryForm.safeParse({ ids });
  if (!parsed.success) return { kind: 'notice' as const, notice: { id: parsed.error.issues[0]?.message ?? 'admin.outbox.error.none' } satisfies Notice };
  // Sends emails again: the first post asks, the second (confirmed) does it.
  if (formData.get('confirmed') !== 'yes') return { kind: 'confirm' as const, ids: parsed.data.ids };
  const retried = await callApi(retryOutbox, { ids: parsed.data.ids }, { ...args, token });
  if (!retried.ok) return { kind: 'notice' as const, notice: apiFailureMessage(retried.error) };
  const { userErrors, retried: done } = retried.data.adminRetryOutbox;
  if (userErrors.length > 0) return { kind: 'notice' as const, notice: { id: userErrors[0]?.messageId ?? 'error.generic' } satisfies Notice };
  return { kind: 'retried' as const, count: done.length };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'admin.outbox.metaTitle', noIndex: true });

export default function AdminOutbox({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const intl = useIntl();
  const busy = useSubmitting();
  const { page, status, after } = loaderData;
  const canRetry = loaderData.permissions.includes('outbox.manage');
  const notice = loaderData.notice ?? (actionData?.kind === 'notice' ? actionData.notice : null);
  const query = (extra: Record<string, string>) => `?${new URLSearchParams({ ...(status ? { status } : {}), ...extra }).toString()}`;
  const when = (iso: string) => intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.outbox.title')} />
      <p className="mt-4 max-w-2xl text-paper/80">{t('admin.outbox.text')}</p>
      <Form method="get" className="mt-10 flex flex-wrap items-end gap-6 bg-paper p-8 text-ink">
        <div>
          <label htmlFor="outbox-status" className="eyebrow block text-stone">{t('admin.outbox.status')}</label>
          <select id="outbox-status" name="status" defaultValue={status ?? ''} className="field-input mt-2">
            <option value="">{t('admin.outbox.allStatuses')}</option>
            {OUTBOX_STATUSES.map((s) => <option key={s} value={s}>{t(`admin.outbox.status.${s}`)}</option>)}
          </select>
        </div>
        <button type="submit" className="btn-primary">{t('admin.outbox.show')}</button>
      </Form>
      {notice && <p role="alert" className="mt-10 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {actionData?.kind === 'retried' && <p role="status" className="mt-10 border-l-2 border-paper pl-4">{t('admin.outbox.retried', { count: actionData.count })}</p>}
      {actionData?.kind === 'confirm' && (
        <section role="alertdialog" aria-labelledby="confirm-retry" aria-describedby="confirm-retry-text" className="mt-10 bg-paper p-8 text-ink">
          <h2 id="confirm-retry" className="font-display text-2xl">{t('admin.outbox.confirmQuestion', { count: actionData.ids.length })}</h2>
          <p id="confirm-retry-text" className="mt-3">{t('admin.outbox.confirmText')}</p>
          <Form method="post" className="mt-6 flex flex-wrap gap-4">
            {actionData.ids.map((id) => <input key={id} type="hidden" name="ids" value={id} />)}
            <input type="hidden" name="confirmed" value="yes" />
            <button type="submit" className="btn-primary" disabled={busy} aria-busy={busy}>{t('admin.outbox.confirm')}</button>
            <Link to={query(after ? { after } : {})} className="btn-inverse border border-ink">{t('admin.outbox.cancel')}</Link>
          </Form>
        </section>
      )}
      {page && (
        <Form method="post" className="mt-10">
          <AdminTable
            caption={t('admin.outbox.title')}
            rows={page.emails.map((mail) => ({
              mail,
              retryable: canRetry && (mail.status === 'FAILED' || mail.status === 'PENDING'),
              // A pending email that failed before waits for its next attempt: said apart from a fresh one.
              state: mail.status === 'PENDING' && mail.attempts > 0 ? 'retrying' : (mail.status.toLowerCase() as OutboxStatusName),
            }))}
            rowKey={({ mail }) => mail.id}
            rowTestId={({ mail }) => `outbox-${mail.id}`}
            empty={t('admin.outbox.empty')}
            columns={[
              canRetry && {
                header: null,
                cell: ({ mail, retryable }) =>
                  retryable && (
                    <>
                      <input id={`select-${mail.id}`} type="checkbox" name="ids" value={mail.id} className="size-5" />
                      <label htmlFor={`select-${mail.id}`} className="sr-only">{t('admin.outbox.selectRow', { id: mail.id })}</label>
                    </>
                  ),
              },
              {
                header: t('admin.outbox.created'),
                cell: ({ mail }) => (
                  <>
                    <span className="block sm:whitespace-nowrap">{when(mail.createdAt)}</span>
                    <span className="block font-mono text-xs text-paper/70">{mail.template}</span>
                  </>
                ),
              },
              {
                header: t('admin.outbox.status'),
                rowHeader: true,
                cell: ({ mail, state }) => (
                  <>
                    <span className="block">{t(`admin.outbox.status.${state}`)}</span>
                    <span className="block text-xs text-paper/70">{t('admin.outbox.attempts')}: {mail.attempts}</span>
                    {mail.status !== 'FAILED' && (
                      <span className="block text-xs text-paper/70">{t('admin.outbox.next')}: {when(mail.sentAt ?? mail.nextAttemptAt)}</span>
                    )}
                  </>
                ),
              },
              { header: t('admin.outbox.lastError'), className: 'font-mono text-xs break-all', cell: ({ mail }) => mail.lastError ?? '—' },
              canRetry && {
                header: null,
                cell: ({ mail, retryable }) =>
                  retryable && (
                    <button type="submit" name="one" value={mail.id} className="link whitespace-nowrap text-paper" disabled={busy} aria-label={`${t('admin.outbox.retry')} ${mail.id}`}>
                      {t('admin.outbox.retry')}
                    </button>
                  ),
              },
            ]}
          />
          <div className="mt-8 flex flex-wrap gap-4">
            {canRetry && page.emails.some((mail) => mail.status === 'FAILED' || mail.status === 'PENDING') && (
              <button type="submit" className="btn-inverse" disabled={busy} aria-busy={busy}>{t('admin.outbox.retrySelected')}</button>
            )}
            {after && <Link to={query({})} className="btn-inverse">{t('admin.outbox.newest')}</Link>}
            {page.nextCursor && <Link to={query({ after: page.nextCursor })} className="btn-inverse">{t('admin.outbox.older')}</Link>}
          </div>
        </Form>
      )}
    </div>
  );
}
