import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { CODE_BALANCE_MAX, codeChangeForm } from '@velvet/validation/codes';
import { useIntl } from 'react-intl';
import { Form, Link, data } from 'react-router';
import type { Route } from './+types/admin-code';
import { changeCode, getCode, releaseCode, revokeCode, rotateCode } from '../lib/admin/code-operations.ts';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { AdminBar } from '../components/admin-bar.tsx';
import { DaysChart, FunnelChart } from '../components/code-charts.tsx';
import { StateLabel } from '../components/code-state.tsx';
import type { Notice } from '../components/code-form.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';

/**
 * One invitation (ADR 046): its facts, its visits, registrations, activations and funnel as
 * charts with the same figures in tables; and for owner and operator (codes.manage) changing its
 * balance and expiry, revoking and rotating it (each asked first), and a link for it.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  const code = (args.params.code ?? '').slice(0, 64);
  const result = await callApi(getCode, { code }, { ...args, token });
  const notice: Notice | null = result.ok ? (result.data.adminCode ? null : { id: 'admin.codes.notFound' }) : apiFailureMessage(result.error);
  return data(
    { email, permissions: session.permissions, detail: result.ok ? result.data.adminCode : null, notice },
    { status: result.ok && !result.data.adminCode ? 404 : 200 },
  );
}

type Refused = { kind: 'notice'; notice: Notice };
const refusal = (userErrors: readonly { messageId: string }[]): Refused => ({ kind: 'notice', notice: { id: userErrors[0]?.messageId ?? 'error.generic' } });

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const code = (args.params.code ?? '').slice(0, 64);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  const call = { ...args, token };
  if (intent === 'change') {
    const submission = parseWithZod(formData, { schema: codeChangeForm() });
    if (submission.status !== 'success') return { kind: 'change' as const, result: submission.reply() };
    const { balance, expiresAt, clearExpiry } = submission.value;
    const changed = await callApi(changeCode, { code, balance: balance ?? null, expiresAt: expiresAt?.toISOString() ?? null, clearExpiry }, call);
    if (!changed.ok) return { kind: 'notice' as const, notice: apiFailureMessage(changed.error) };
    const { userErrors } = changed.data.adminChangeCode;
    if (userErrors.some((e) => e.code === 'INVALID_FIELD')) {
      const fieldErrors: Record<string, string[]> = {};
      for (const e of userErrors) (fieldErrors[e.field ?? 'balance'] ??= []).push(e.messageId);
      return { kind: 'change' as const, result: submission.reply({ fieldErrors }) };
    }
    return userErrors.length ? refusal(userErrors) : { kind: 'changed' as const, result: submission.reply({ resetForm: true }) };
  }
  if (intent === 'revoke' || intent === 'rotate' || intent === 'release') {
    // Destructive (or, for a release, registering people at once): the first post asks, the second (confirmed) does it.
    if (formData.get('confirmed') !== 'yes') return { kind: 'confirm' as const, intent };
    if (intent === 'release') {
      const released = await callApi(releaseCode, { code }, call);
      if (!released.ok) return { kind: 'notice' as const, notice: apiFailureMessage(released.error) };
      const { registered, dropped, userErrors } = released.data.adminReleaseCode;
      return userErrors.length ? refusal(userErrors) : { kind: 'released' as const, registered, dropped };
    }
    if (intent === 'revoke') {
      const revoked = await callApi(revokeCode, { code }, call);
      if (!revoked.ok) return { kind: 'notice' as const, notice: apiFailureMessage(revoked.error) };
      const { userErrors } = revoked.data.adminRevokeCode;
      return userErrors.length ? refusal(userErrors) : { kind: 'revoked' as const };
    }
    const rotated = await callApi(rotateCode, { code }, call);
    if (!rotated.ok) return { kind: 'notice' as const, notice: apiFailureMessage(rotated.error) };
    const { newCode, userErrors } = rotated.data.adminRotateCode;
    return userErrors.length || !newCode ? refusal(userErrors) : { kind: 'rotated' as const, newCode };
  }
  return { kind: 'notice' as const, notice: { id: 'error.generic' } };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'admin.codes.metaCodeTitle', values: { code: (args.params.code ?? '').toUpperCase() }, noIndex: true });

export default function AdminCode({ loaderData, actionData, params }: Route.ComponentProps) {
  const t = useT();
  const intl = useIntl();
  const path = useLocalPath();
  const { detail } = loaderData;
  const notice = loaderData.notice ?? (actionData?.kind === 'notice' ? actionData.notice : null);
  const canManage = loaderData.permissions.includes('codes.manage');
  if (!detail) {
    return (
      <div>
        <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
        {notice && <p role="alert" className="border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      </div>
    );
  }
  const { code } = detail;
  const live = code.state !== 'REVOKED';
  const date = (iso: string | null) => (iso ? intl.formatDate(iso, { dateStyle: 'medium' }) : t('admin.codes.never'));
  const dayLabel = (day: string) => intl.formatDate(`${day}T12:00:00Z`, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const seriesLabels = { visits: t('admin.codes.stats.visits'), registrations: t('admin.codes.stats.registrations'), activations: t('admin.codes.stats.activations') };
  const steps = detail.funnel.map((s) => ({ label: t(`admin.funnel.event.${s.event}`), sessions: s.sessions }));
  const firstDay = detail.days[0]?.day ?? '';
  const lastDay = detail.days.at(-1)?.day ?? '';
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <p className="mb-8"><Link to={path('/admin/codes')} className="link text-paper">← {t('admin.codes.back')}</Link></p>
      <PageIntro inverse eyebrow={t('admin.codes.title')} title={code.code} />
      <p className="mt-4 text-paper/80">
        <StateLabel state={code.state} replaced={code.replaced} /> · {t('admin.codes.inviter', { name: code.inviterName })}
      </p>
      {!code.inviterActive && <p className="mt-2 text-paper/80">{t('admin.codes.inviterInactive')}</p>}
      {notice && <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {actionData?.kind === 'revoked' && <p role="status" className="mt-8 border-l-2 border-paper pl-4">{t('admin.codes.revoke.done', { code: code.code })}</p>}
      {actionData?.kind === 'released' && (
        <p role="status" className="mt-8 border-l-2 border-paper pl-4">
          {t('admin.codes.release.done', { code: code.code, registered: actionData.registered, dropped: actionData.dropped })}
        </p>
      )}
      {actionData?.kind === 'rotated' && (
        <p role="status" className="mt-8 border-l-2 border-paper pl-4">
          {t('admin.codes.rotate.done', { code: code.code, newCode: actionData.newCode })}{' '}
          <Link to={path(`/admin/codes/${actionData.newCode}`)} className="link text-paper">{t('admin.codes.openNew', { code: actionData.newCode })}</Link>
        </p>
      )}

      <dl className="mt-10 grid gap-4 text-paper sm:grid-cols-3">
        {(['visits', 'registrations', 'activations'] as const).map((key) => (
          <div key={key} className="border-t border-paper/30 pt-4">
            <dt className="eyebrow text-paper/70">{seriesLabels[key]}</dt>
            <dd className="mt-2 font-display text-3xl tabular-nums" data-testid={`stat-${key}`}>{intl.formatNumber(detail[key])}</dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="facts-title" className="mt-10 bg-paper p-8 text-ink">
        <h2 id="facts-title" className="font-display text-2xl">{t('admin.codes.facts')}</h2>
        <dl className="mt-4 grid gap-x-8 gap-y-3 sm:grid-cols-2">
          <div><dt className="eyebrow text-stone">{t('admin.codes.col.balance')}</dt><dd data-testid="code-balance">{intl.formatNumber(code.balance)}</dd></div>
          <div><dt className="eyebrow text-stone">{t('admin.codes.col.pending')}</dt><dd>{intl.formatNumber(code.pending)}</dd></div>
          <div><dt className="eyebrow text-stone">{t('admin.codes.col.expires')}</dt><dd data-testid="code-expires">{date(code.expiresAt)}</dd></div>
          <div><dt className="eyebrow text-stone">{t('admin.codes.col.landing')}</dt><dd>{[code.customization, code.landingSlug ? `/${code.landingSlug}` : null].filter(Boolean).join(' · ') || '—'}</dd></div>
          <div><dt className="eyebrow text-stone">{t('admin.codes.created')}</dt><dd>{date(code.createdAt)}</dd></div>
          {code.requiresValidityTimestamp && <div><dt className="eyebrow text-stone">{t('admin.codes.links.title')}</dt><dd>{t('admin.codes.linkOnly')}</dd></div>}
        </dl>
        <CopyButton value={code.code} label="admin.codes.copyCode" className="btn-inverse border border-ink" />
        {live && canManage && (
          <p><Link to={path(`/admin/registrationlinkgenerator?code=${encodeURIComponent(code.code)}`)} className="link">{t('admin.codes.links.generate')}</Link></p>
        )}
      </section>

      <section aria-labelledby="days-title" className="mt-10 bg-paper p-8 text-ink">
        <h2 id="days-title" className="font-display text-2xl">{t('admin.codes.chart.daysTitle')}</h2>
        <div className="mt-6">
          <DaysChart
            days={detail.days}
            labels={seriesLabels}
            title={t('admin.codes.chart.daysTitle')}
            description={t('admin.codes.chart.daysDesc', { from: date(`${firstDay}T12:00:00Z`), to: date(`${lastDay}T12:00:00Z`) })}
            dayLabel={dayLabel}
          />
        </div>
        <details className="mt-6">
          <summary className="link cursor-pointer">{t('admin.codes.chart.table')}</summary>
          <div className="mt-4 overflow-x-auto" role="region" aria-label={t('admin.codes.chart.table')} tabIndex={0}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('admin.codes.chart.daysTitle')}</caption>
              <thead className="eyebrow text-stone">
                <tr>
                  <th scope="col" className="py-2 pr-4">{t('admin.codes.chart.day')}</th>
                  <th scope="col" className="py-2 pr-4 text-right">{seriesLabels.visits}</th>
                  <th scope="col" className="py-2 pr-4 text-right">{seriesLabels.registrations}</th>
                  <th scope="col" className="py-2 text-right">{seriesLabels.activations}</th>
                </tr>
              </thead>
              <tbody>
                {detail.days.map((d) => (
                  <tr key={d.day} className="border-t border-line">
                    <th scope="row" className="py-1 pr-4 font-normal whitespace-nowrap">{dayLabel(d.day)}</th>
                    <td className="py-1 pr-4 text-right tabular-nums">{d.visits}</td>
                    <td className="py-1 pr-4 text-right tabular-nums">{d.registrations}</td>
                    <td className="py-1 text-right tabular-nums">{d.activations}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>

      <section aria-labelledby="funnel-title" className="mt-10 bg-paper p-8 text-ink">
        <h2 id="funnel-title" className="font-display text-2xl">{t('admin.codes.chart.funnelTitle')}</h2>
        <div className="mt-6">
          <FunnelChart steps={steps} title={t('admin.codes.chart.funnelTitle')} description={t('admin.codes.chart.funnelDesc')} />
        </div>
        <table className="mt-6 w-full text-left text-sm" data-testid="code-funnel-table">
          <caption className="sr-only">{t('admin.codes.chart.funnelTitle')}</caption>
          <thead className="eyebrow text-stone">
            <tr>
              <th scope="col" className="py-2 pr-4">{t('admin.funnel.step')}</th>
              <th scope="col" className="py-2 text-right">{t('admin.funnel.sessions')}</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s) => (
              <tr key={s.label} className="border-t border-line">
                <th scope="row" className="py-1 pr-4 font-normal">{s.label}</th>
                <td className="py-1 text-right tabular-nums">{s.sessions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {canManage && live ? (
        <CodeActions actionData={actionData} code={code.code} expiresAt={code.expiresAt} balance={code.balance} quarantined={code.state === 'QUARANTINED'} key={params.code} />
      ) : (
        !canManage && <p className="mt-10 text-paper/80">{t('admin.codes.readOnly')}</p>
      )}
    </div>
  );
}

type ActionData = Route.ComponentProps['actionData'];

function CodeActions({
  actionData,
  code,
  balance,
  expiresAt,
  quarantined,
}: {
  actionData: ActionData;
  code: string;
  balance: number;
  expiresAt: string | null;
  quarantined: boolean;
}) {
  const t = useT();
  const busyChange = useSubmitting('change');
  const busyIntent = { release: useSubmitting('release'), revoke: useSubmitting('revoke'), rotate: useSubmitting('rotate') };
  // A quarantined code (ADR 043) may be released: its held registrations then register.
  const intents = quarantined ? (['release', 'revoke', 'rotate'] as const) : (['revoke', 'rotate'] as const);
  const lastResult = actionData?.kind === 'change' || actionData?.kind === 'changed' ? actionData.result : undefined;
  const [form, fields] = useForm<Record<string, string>>({ id: 'change-code', lastResult });
  const confirm = actionData?.kind === 'confirm' ? actionData.intent : null;
  return (
    <>
      <section aria-labelledby="change-title" className="mt-10 bg-paper p-8 text-ink">
        <h2 id="change-title" className="font-display text-2xl">{t('admin.codes.change.title')}</h2>
        {actionData?.kind === 'changed' && <p role="status" className="mt-3">{t('admin.codes.change.saved')}</p>}
        <Form method="post" {...getFormProps(form)} noValidate className="mt-6 grid gap-6 sm:grid-cols-3">
          <input type="hidden" name="intent" value="change" />
          <div>
            <label htmlFor={fields.balance?.id} className="eyebrow block text-stone">{t('admin.codes.change.balance')}</label>
            <input {...getInputProps(fields.balance!, { type: 'number' })} min={0} max={CODE_BALANCE_MAX} placeholder={String(balance)} className="field-input mt-2" aria-describedby={describedBy(fields.balance!)} />
            <FieldErrors field={fields.balance!} />
          </div>
          <div>
            <label htmlFor={fields.expiresAt?.id} className="eyebrow block text-stone">{t('admin.codes.change.expires')}</label>
            <input {...getInputProps(fields.expiresAt!, { type: 'date' })} className="field-input mt-2" aria-describedby={describedBy(fields.expiresAt!)} />
            <FieldErrors field={fields.expiresAt!} />
          </div>
          <label className="flex items-center gap-3 self-center">
            <input type="checkbox" name="clearExpiry" className="size-5" disabled={expiresAt === null} />
            <span>{t('admin.codes.change.clearExpiry')}</span>
          </label>
          <button type="submit" className="btn-primary sm:col-span-3 sm:justify-self-start" disabled={busyChange} aria-busy={busyChange}>{t('admin.codes.change.submit')}</button>
        </Form>
      </section>

      <div className="mt-10 grid gap-10 lg:grid-cols-2">
        {intents.map((intent) => {
          const busy = busyIntent[intent];
          return (
            <section key={intent} aria-labelledby={`${intent}-title`} className="bg-paper p-8 text-ink">
              <h2 id={`${intent}-title`} className="font-display text-2xl">{t(`admin.codes.${intent}.title`)}</h2>
              <p className="mt-3">{t(`admin.codes.${intent}.text`)}</p>
              {confirm === intent ? (
                <div role="alertdialog" aria-labelledby={`${intent}-question`} className="mt-6 border-l-2 border-ink pl-4">
                  <p id={`${intent}-question`} className="font-medium">{t(`admin.codes.${intent}.question`, { code })}</p>
                  <Form method="post" className="mt-4 flex flex-wrap items-center gap-4">
                    <input type="hidden" name="intent" value={intent} />
                    <input type="hidden" name="confirmed" value="yes" />
                    <button type="submit" className="btn-primary" disabled={busy} aria-busy={busy} autoFocus>{t(`admin.codes.${intent}.confirm`)}</button>
                    <Link to="." className="link">{t('admin.codes.cancel')}</Link>
                  </Form>
                </div>
              ) : (
                <Form method="post" className="mt-6">
                  <input type="hidden" name="intent" value={intent} />
                  <button type="submit" className="btn-inverse border border-ink" disabled={busy}>{t(`admin.codes.${intent}.button`)}</button>
                </Form>
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}
