import { AUDIT_ACTIONS } from '@velvet/validation/admin';
import { useIntl } from 'react-intl';
import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-audit';
import { AdminBar } from '../components/admin-bar.tsx';
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
      <PageIntro inverse eyebrow={t('brand.name')} title={t('admin.audit.title')} />
      <p className="mt-4 max-w-2xl text-paper/80">{t('admin.audit.text')}</p>
      {!loaderData.allowed && <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t('admin.forbidden')}</p>}
      {loaderData.allowed && (
        <Form method="get" className="mt-10 grid gap-6 bg-paper p-8 text-ink sm:grid-cols-3">
          <div>
            <label htmlFor="audit-action" className="eyebrow block text-stone">{t('admin.audit.action')}</label>
            <select id="audit-action" name="action" defaultValue={filter.action ?? ''} className="field-input mt-2">
              <option value="">{t('admin.audit.allActions')}</option>
              {AUDIT_ACTIONS.map((action) => <option key={action} value={action}>{action}</option>)}
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
        // A region of its own: on a phone the table scrolls sideways, by keyboard too.
        <div className="mt-10 overflow-x-auto" role="region" aria-label={t('admin.audit.title')} tabIndex={0}>
          <table className="w-full min-w-[48rem] text-left text-sm text-paper">
            <caption className="sr-only">{t('admin.audit.title')}</caption>
            <thead className="eyebrow text-paper/70">
              <tr>
                <th scope="col" className="py-3 pr-4">{t('admin.audit.when')}</th>
                <th scope="col" className="py-3 pr-4">{t('admin.audit.actor')}</th>
                <th scope="col" className="py-3 pr-4">{t('admin.audit.action')}</th>
                <th scope="col" className="py-3 pr-4">{t('admin.audit.target')}</th>
                <th scope="col" className="py-3 pr-4">{t('admin.audit.address')}</th>
                <th scope="col" className="py-3">{t('admin.audit.details')}</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => (
                <tr key={entry.id} className="border-t border-paper/20 align-top">
                  <td className="py-3 pr-4 whitespace-nowrap">{intl.formatDate(entry.at, { dateStyle: 'medium', timeStyle: 'medium' })}</td>
                  <td className="py-3 pr-4 break-all">{entry.actorEmail ?? '—'}</td>
                  <td className="py-3 pr-4 font-mono">{entry.action}</td>
                  <td className="py-3 pr-4 break-all">{entry.target ?? '—'}</td>
                  <td className="py-3 pr-4 font-mono">{entry.clientAddress ?? '—'}</td>
                  <td className="py-3 font-mono text-xs break-all">{entry.details === '{}' ? '' : entry.details}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.entries.length === 0 && <p className="mt-6">{t('admin.audit.empty')}</p>}
          {next && <Link to={next} className="btn-inverse mt-8 inline-block">{t('admin.audit.older')}</Link>}
        </div>
      )}
    </div>
  );
}
