import { AUDIT_ACTIONS } from '@velvet/validation/admin';
import { useIntl } from 'react-intl';
import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-audit';
import { AdminBar } from '../components/admin-bar.tsx';
import { AdminTable } from '../components/admin-table.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { getAuditLog } from '../lib/api/operations.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { useT } from '../lib/page/use-root.ts';

const FILTERS = ['action', 'actor', 'target'] as const;

/**
 * The audit log (ADR 045), newest first, 50 a page: who did what, when, from where. Read-only:
 * neither this page nor the API can change it. Permission audit.read (owner, privacy).
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  // audit.read (owner, privacy): the API refuses everyone else, the page says so and shows nothing of the log.
  if (!session.permissions.includes('audit.read')) {
    return { email, permissions: session.permissions, allowed: false, filter: { action: null, actor: null, target: null }, page: null, notice: null };
  }
  const search = new URL(args.request.url).searchParams;
  const value = (name: (typeof FILTERS)[number] | 'after') => search.get(name)?.trim().slice(0, 254) || null;
  const filter = { action: value('action'), actor: value('actor'), target: value('target') };
  const result = await callApi(getAuditLog, { ...filter, after: value('after') }, { ...args, token });
  return {
    email,
    permissions: session.permissions,
    allowed: true,
    filter,
    page: result.ok ? result.data.auditLog : null,
    notice: result.ok ? null : apiFailureMessage(result.error),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminAudit.title', noIndex: true });

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const intl = useIntl();
  const { filter, page, notice } = loaderData;
  const next = page?.nextCursor
    ? `?${new URLSearchParams({ ...Object.fromEntries(FILTERS.flatMap((name) => (filter[name] ? [[name, filter[name]]] : []))), after: page.nextCursor }).toString()}`
    : null;
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.audit.title')} />
      <p className="mt-4 max-w-2xl text-paper/80">{t('admin.audit.text')}</p>
      {!loaderData.allowed && <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t('admin.forbidden')}</p>}
      {loaderData.allowed && (
        <Form method="get" className="mt-10 grid gap-6 bg-paper p-8 text-ink sm:grid-cols-3">
          <div>
            <label htmlFor="audit-action" className="eyebrow block text-stone">{t('admin.audit.action')}</label>
            <select id="audit-action" name="action" defaultValue={filter.action ?? ''} className="field-input mt-2">
              <option value="">{t('admin.audit.allActions')}</option>
              {AUDIT_ACTIONS.map((action) => <option key={action} value={action}>{t(`admin.audit.event.${action}`)}</option>)}
            </select>
          </div>
          <div>
            <label htmlFor="audit-actor" className="eyebrow block text-stone">{t('admin.audit.actor')}</label>
            <input id="audit-actor" name="actor" type="email" defaultValue={filter.actor ?? ''} className="field-input mt-2" />
          </div>
          <div>
            <label htmlFor="audit-target" className="eyebrow block text-stone">{t('admin.audit.target')}</label>
            <input id="audit-target" name="target" defaultValue={filter.target ?? ''} className="field-input mt-2" />
          </div>
          <button type="submit" className="btn-primary sm:col-span-3 sm:justify-self-start">{t('admin.audit.search')}</button>
        </Form>
      )}
      {notice && <p role="alert" className="mt-10 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {page && (
        <AdminTable
          caption={t('admin.audit.title')}
          className="mt-10"
          minWidth="min-w-[48rem]"
          rows={page.entries}
          rowKey={(entry) => entry.id}
          empty={t('admin.audit.empty')}
          columns={[
            { header: t('admin.audit.when'), className: 'whitespace-nowrap', cell: (entry) => intl.formatDate(entry.at, { dateStyle: 'medium', timeStyle: 'medium' }) },
            { header: t('admin.audit.actor'), className: 'whitespace-nowrap', cell: (entry) => entry.actorEmail ?? '—' },
            {
              header: t('admin.audit.action'),
              // What happened, in the page's language; the action's id below it, as the logs and the CLI name it.
              cell: (entry) => (
                <>
                  {(AUDIT_ACTIONS as readonly string[]).includes(entry.action) ? t(`admin.audit.event.${entry.action}`) : entry.action}
                  <span className="block font-mono text-xs text-paper/60">{entry.action}</span>
                </>
              ),
            },
            { header: t('admin.audit.target'), className: 'break-words', cell: (entry) => entry.target ?? '—' },
            { header: t('admin.audit.address'), className: 'font-mono', cell: (entry) => entry.clientAddress ?? '—' },
            { header: t('admin.audit.details'), className: 'font-mono text-xs break-words', cell: (entry) => (entry.details === '{}' ? '' : entry.details) },
          ]}
        >
          {next && <Link to={next} className="btn-inverse mt-8 inline-block">{t('admin.audit.older')}</Link>}
        </AdminTable>
      )}
    </div>
  );
}
