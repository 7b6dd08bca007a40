import { WEBHOOK_EVENT_TYPES } from '@velvet/validation/admin';
import { useIntl } from 'react-intl';
import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-webhooks';
import { AdminBar } from '../components/admin-bar.tsx';
import { AdminTable } from '../components/admin-table.tsx';
import type { Notice } from '../components/code-form.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { createWebhook, deleteWebhook, getWebhooks, replayWebhooks, rotateWebhookSecret, updateWebhook } from '../lib/admin/webhook-operations.ts';
import { callApi } from '../lib/api/api.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { useT } from '../lib/page/use-root.ts';

/** The replay ranges offered, back from now (the server's clock, so no time zone is guessed). */
const RANGES = { hour: 60 * 60 * 1000, day: 24 * 60 * 60 * 1000, week: 7 * 24 * 60 * 60 * 1000 } as const;
type RangeName = keyof typeof RANGES;
const isRange = (value: unknown): value is RangeName => typeof value === 'string' && Object.hasOwn(RANGES, value);

/**
 * Webhooks (issue 24 §4, ADR 065): the owner's endpoints — add one (its secret shown once), choose
 * its events, switch it on or off, rotate its secret, delete it — each with its recent deliveries,
 * which can be sent again one by one, all failing ones, or a range. The API allows only the owner
 * (webhooks.manage); any other role is told so and sees nothing.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  // A page of one endpoint's older deliveries (its cursor names it); the others show their newest.
  const after = new URL(args.request.url).searchParams.get('after')?.slice(0, 200) || null;
  const result = await callApi(getWebhooks, { after }, { ...args, token });
  return {
    email,
    permissions: session.permissions,
    endpoints: result.ok ? result.data.webhookEndpoints : null,
    notice: result.ok ? null : apiFailureMessage(result.error),
  };
}

type Refusal = readonly { field: string | null; messageId: string }[];
const refused = (userErrors: Refusal) => ({ kind: 'notice' as const, notice: { id: userErrors[0]?.messageId ?? 'error.generic' } satisfies Notice });

function endpointInput(formData: FormData) {
  return {
    url: String(formData.get('url') ?? '').slice(0, 2000),
    description: String(formData.get('description') ?? '').slice(0, 200),
    eventTypes: formData.getAll('eventTypes').map(String).slice(0, WEBHOOK_EVENT_TYPES.length + 1),
  };
}

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  const id = String(formData.get('id') ?? '').slice(0, 64);
  const call = { ...args, token };
  if (intent === 'create') {
    const created = await callApi(createWebhook, { input: endpointInput(formData) }, call);
    if (!created.ok) return { kind: 'notice' as const, notice: apiFailureMessage(created.error) };
    const { secret, userErrors } = created.data.webhookEndpointCreate;
    return secret ? { kind: 'secret' as const, secret } : refused(userErrors);
  }
  if (intent === 'update') {
    const updated = await callApi(updateWebhook, { id, input: endpointInput(formData), enabled: formData.get('enabled') === 'on' }, call);
    if (!updated.ok) return { kind: 'notice' as const, notice: apiFailureMessage(updated.error) };
    return updated.data.webhookEndpointUpdate.endpoint ? { kind: 'saved' as const } : refused(updated.data.webhookEndpointUpdate.userErrors);
  }
  if (intent === 'rotate') {
    const rotated = await callApi(rotateWebhookSecret, { id }, call);
    if (!rotated.ok) return { kind: 'notice' as const, notice: apiFailureMessage(rotated.error) };
    const { secret, userErrors } = rotated.data.webhookSecretRotate;
    return secret ? { kind: 'secret' as const, secret } : refused(userErrors);
  }
  if (intent === 'delete') {
    // Destructive: the first post asks, the second (confirmed) does it.
    if (formData.get('confirmed') !== 'yes') return { kind: 'confirm-delete' as const, id, host: String(formData.get('host') ?? '').slice(0, 254) };
    const deleted = await callApi(deleteWebhook, { id }, call);
    if (!deleted.ok) return { kind: 'notice' as const, notice: apiFailureMessage(deleted.error) };
    return deleted.data.webhookEndpointDelete.count > 0 ? { kind: 'deleted' as const } : refused(deleted.data.webhookEndpointDelete.userErrors);
  }
  const range = formData.get('range');
  const to = new Date();
  const selection =
    intent === 'replay-one'
      ? { deliveryId: String(formData.get('deliveryId') ?? '').slice(0, 64) }
      : intent === 'replay-failed'
        ? { failed: true }
        : intent === 'replay-range' && isRange(range)
          ? { from: new Date(to.getTime() - RANGES[range]).toISOString(), to: to.toISOString() }
          : null;
  if (!selection) return { kind: 'notice' as const, notice: { id: 'admin.webhooks.error.range' } satisfies Notice };
  const replayed = await callApi(replayWebhooks, { endpointId: id, ...selection }, call);
  if (!replayed.ok) return { kind: 'notice' as const, notice: apiFailureMessage(replayed.error) };
  const { count, userErrors } = replayed.data.webhookReplay;
  return userErrors.length > 0 ? refused(userErrors) : { kind: 'replayed' as const, count };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'admin.webhooks.metaTitle', noIndex: true });

type Endpoint = NonNullable<Route.ComponentProps['loaderData']['endpoints']>[number];
type Delivery = Endpoint['deliveryPage']['deliveries'][number];

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  const notice: Notice | null = loaderData.notice ?? (actionData?.kind === 'notice' ? actionData.notice : null);
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.webhooks.title')} />
      {loaderData.endpoints && <p className="mt-4 max-w-2xl text-paper/80">{t('admin.webhooks.text')}</p>}
      {notice && <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {actionData?.kind === 'saved' && <p role="status" className="mt-8 border-l-2 border-paper pl-4">{t('admin.webhooks.saved')}</p>}
      {actionData?.kind === 'deleted' && <p role="status" className="mt-8 border-l-2 border-paper pl-4">{t('admin.webhooks.deleted')}</p>}
      {actionData?.kind === 'replayed' && <p role="status" className="mt-8 border-l-2 border-paper pl-4">{t('admin.webhooks.replayed', { count: actionData.count })}</p>}
      {actionData?.kind === 'secret' && (
        <section role="status" aria-labelledby="webhook-secret" className="mt-8 bg-paper p-8 text-ink">
          <h2 id="webhook-secret" className="font-display text-2xl">{t('admin.webhooks.secretOnce')}</h2>
          <p className="mt-4 break-all">
            <code data-testid="webhook-secret" className="font-mono">{actionData.secret}</code>
          </p>
          <CopyButton value={actionData.secret} className="btn-primary mt-4" />
        </section>
      )}
      {actionData?.kind === 'confirm-delete' && (
        <section role="alertdialog" aria-labelledby="confirm-delete" aria-describedby="confirm-delete-text" className="mt-8 bg-paper p-8 text-ink">
          <h2 id="confirm-delete" className="font-display text-2xl">{t('admin.webhooks.deleteQuestion', { host: actionData.host })}</h2>
          <p id="confirm-delete-text" className="mt-3">{t('admin.webhooks.deleteText')}</p>
          <Form method="post" className="mt-6 flex flex-wrap gap-4">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={actionData.id} />
            <input type="hidden" name="confirmed" value="yes" />
            <button type="submit" className="btn-primary" disabled={busy}>{t('admin.webhooks.deleteConfirm')}</button>
            <Link to="." className="btn-inverse border border-ink">{t('admin.webhooks.cancel')}</Link>
          </Form>
        </section>
      )}
      {loaderData.endpoints && (
        <>
          {loaderData.endpoints.length === 0 && <p className="mt-10">{t('admin.webhooks.none')}</p>}
          {loaderData.endpoints.map((endpoint) => <EndpointSection key={endpoint.id} endpoint={endpoint} />)}
          {/* A new key after each secret shown: the form starts empty again, so one click adds one endpoint. */}
          <NewEndpoint key={actionData?.kind === 'secret' ? actionData.secret : 'new'} />
        </>
      )}
    </div>
  );
}

/** The address, description and event checkboxes of an endpoint's form (new, or its settings). */
function EndpointFields({ prefix, endpoint }: { prefix: string; endpoint?: Endpoint }) {
  const t = useT();
  return (
    <>
      <div>
        <label htmlFor={`${prefix}-url`} className="eyebrow block text-stone">{t('admin.webhooks.url')}</label>
        <input id={`${prefix}-url`} name="url" type="url" required defaultValue={endpoint?.url} aria-describedby={`${prefix}-url-hint`} className="field-input mt-2" autoComplete="off" />
        <p id={`${prefix}-url-hint`} className="mt-1 text-sm text-stone">{t('admin.webhooks.urlHint')}</p>
      </div>
      <div>
        <label htmlFor={`${prefix}-description`} className="eyebrow block text-stone">{t('admin.webhooks.description')}</label>
        <input id={`${prefix}-description`} name="description" maxLength={200} defaultValue={endpoint?.description} className="field-input mt-2" autoComplete="off" />
      </div>
      <fieldset className="sm:col-span-2">
        <legend className="eyebrow text-stone">{t('admin.webhooks.eventTypes')}</legend>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-start gap-3">
              <input type="checkbox" name="eventTypes" value={type} defaultChecked={endpoint ? endpoint.eventTypes.includes(type) : true} className="mt-1 size-5" />
              <span>
                {t(`admin.webhooks.event.${type}`)} <span className="font-mono text-xs text-stone">{type}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}

function NewEndpoint() {
  const t = useT();
  const busy = useSubmitting();
  return (
    <section aria-labelledby="new-webhook" className="mt-12 bg-paper p-8 text-ink">
      <h2 id="new-webhook" className="font-display text-2xl">{t('admin.webhooks.new')}</h2>
      <Form method="post" className="mt-6 grid gap-6 sm:grid-cols-2">
        <input type="hidden" name="intent" value="create" />
        <EndpointFields prefix="new" />
        <button type="submit" className="btn-primary sm:col-span-2 sm:justify-self-start" disabled={busy}>{t('admin.webhooks.create')}</button>
      </Form>
    </section>
  );
}

function EndpointSection({ endpoint }: { endpoint: Endpoint }) {
  const t = useT();
  const intl = useIntl();
  const busy = useSubmitting();
  const host = hostOf(endpoint.url);
  const when = (iso: string) => intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'medium' });
  const titleId = `endpoint-${endpoint.id}`;
  const state = endpoint.enabled ? 'on' : endpoint.disabledReason === 'failing' ? 'failing' : 'owner';
  const statusOf = (d: Delivery) => (d.status === 'pending' && d.attempts > 0 ? 'retrying' : d.status);
  const response = (d: Delivery) =>
    d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : d.lastError === 'timeout' || d.lastError === 'unreachable' ? t(`admin.webhooks.response.${d.lastError}`) : '—';
  return (
    <section aria-labelledby={titleId} data-testid="webhook-endpoint" className="mt-12 border-t border-paper/20 pt-8">
      <h2 id={titleId} className="font-display text-3xl break-words">{endpoint.description || host}</h2>
      <p className="mt-2 font-mono text-sm break-all text-paper/80">{endpoint.url}</p>
      <p className="mt-2">
        <span className="eyebrow text-paper/70">{t('admin.webhooks.col.status')}</span> {t(`admin.webhooks.state.${state}`)}
        {endpoint.failingSince && <span className="block text-sm text-paper/80">{t('admin.webhooks.failingSince', { since: when(endpoint.failingSince) })}</span>}
      </p>
      <details className="mt-6 bg-paper p-6 text-ink">
        <summary className="cursor-pointer font-display text-xl">{t('admin.webhooks.settings')}</summary>
        <Form method="post" className="mt-6 grid gap-6 sm:grid-cols-2">
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={endpoint.id} />
          <EndpointFields prefix={`edit-${endpoint.id}`} endpoint={endpoint} />
          <label className="flex items-start gap-3 sm:col-span-2">
            <input type="checkbox" name="enabled" defaultChecked={endpoint.enabled} className="mt-1 size-5" />
            <span>{t('admin.webhooks.enabled')}</span>
          </label>
          <button type="submit" className="btn-primary sm:col-span-2 sm:justify-self-start" disabled={busy}>{t('admin.webhooks.save')}</button>
        </Form>
      </details>
      <div className="mt-6 flex flex-wrap items-end gap-4">
        <Form method="post">
          <input type="hidden" name="intent" value="rotate" />
          <input type="hidden" name="id" value={endpoint.id} />
          <button type="submit" className="btn-inverse" disabled={busy}>{t('admin.webhooks.rotate')}</button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="replay-failed" />
          <input type="hidden" name="id" value={endpoint.id} />
          <button type="submit" className="btn-inverse" disabled={busy}>{t('admin.webhooks.replayFailed')}</button>
        </Form>
        <Form method="post" className="flex flex-wrap items-end gap-4">
          <input type="hidden" name="intent" value="replay-range" />
          <input type="hidden" name="id" value={endpoint.id} />
          <div>
            <label htmlFor={`range-${endpoint.id}`} className="eyebrow block text-paper/70">{t('admin.webhooks.range')}</label>
            <select id={`range-${endpoint.id}`} name="range" defaultValue="hour" className="field-input mt-2 w-auto bg-paper text-ink">
              {(Object.keys(RANGES) as RangeName[]).map((range) => <option key={range} value={range}>{t(`admin.webhooks.range.${range}`)}</option>)}
            </select>
          </div>
          <button type="submit" className="btn-inverse" disabled={busy}>{t('admin.webhooks.replayRange')}</button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={endpoint.id} />
          <input type="hidden" name="host" value={host} />
          <button type="submit" className="link text-paper" disabled={busy}>{t('admin.webhooks.delete')}</button>
        </Form>
      </div>
      <AdminTable
        caption={`${t(endpoint.deliveryPage.paged ? 'admin.webhooks.older' : 'admin.webhooks.deliveries')}: ${endpoint.description || host}`}
        className="mt-8"
        minWidth="min-w-[52rem]"
        rows={endpoint.deliveryPage.deliveries}
        rowKey={(d) => d.id}
        rowTestId={(d) => `delivery-${d.id}`}
        empty={t('admin.webhooks.noDeliveries')}
        columns={[
          {
            header: t('admin.webhooks.col.event'),
            rowHeader: true,
            cell: (d) => (
              <>
                <span className="block">{(WEBHOOK_EVENT_TYPES as readonly string[]).includes(d.eventType) ? t(`admin.webhooks.event.${d.eventType}`) : d.eventType}</span>
                <span className="block text-xs text-paper/70">{when(d.createdAt)}</span>
              </>
            ),
          },
          { header: t('admin.webhooks.col.id'), className: 'font-mono text-xs break-all', cell: (d) => d.id },
          { header: t('admin.webhooks.col.status'), cell: (d) => t(`admin.webhooks.status.${statusOf(d)}`) },
          { header: t('admin.webhooks.col.attempts'), numeric: true, cell: (d) => d.attempts },
          { header: t('admin.webhooks.col.response'), className: 'whitespace-nowrap', cell: (d) => response(d) },
          { header: t('admin.webhooks.col.next'), cell: (d) => (d.nextAttemptAt ? when(d.nextAttemptAt) : '—') },
          {
            header: null,
            cell: (d) =>
              d.status !== 'sending' && (
                <Form method="post">
                  <input type="hidden" name="intent" value="replay-one" />
                  <input type="hidden" name="id" value={endpoint.id} />
                  <input type="hidden" name="deliveryId" value={d.id} />
                  <button type="submit" className="link whitespace-nowrap text-paper" disabled={busy} aria-label={t('admin.webhooks.replayOne', { id: d.id })}>
                    {t('admin.webhooks.replay')}
                  </button>
                </Form>
              ),
          },
        ]}
      />
      {(endpoint.deliveryPage.paged || endpoint.deliveryPage.nextCursor) && (
        <nav aria-label={`${t('admin.webhooks.deliveries')}: ${endpoint.description || host}`} className="mt-6 flex flex-wrap gap-4">
          {endpoint.deliveryPage.paged && <Link to={{ search: '', hash: titleId }} className="btn-inverse">{t('admin.webhooks.newest')}</Link>}
          {endpoint.deliveryPage.nextCursor && (
            <Link to={{ search: `?after=${endpoint.deliveryPage.nextCursor}`, hash: titleId }} className="btn-inverse">{t('admin.webhooks.older')}</Link>
          )}
        </nav>
      )}
    </section>
  );
}
