import { useIntl } from 'react-intl';
import { Form } from 'react-router';
import { LOCALE_NAMES, isLocale } from '@velvet/i18n/locales';
import type { Route } from './+types/admin-funnel';
import { AdminBar } from '../components/admin-bar.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { type FunnelCount, type FunnelFilter, getFunnelReport } from '../lib/admin/funnel-operations.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { useT } from '../lib/page/use-root.ts';

const FILTERS = ['language', 'country', 'variant', 'link'] as const;

/** The admin's view of the first-party funnel (ADR 011), filtered by the GET form's choices. */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  const search = new URL(args.request.url).searchParams;
  const value = (name: (typeof FILTERS)[number]) => search.get(name)?.trim().slice(0, 100) || null;
  const filter: FunnelFilter = {
    language: value('language'),
    country: value('country'),
    variant: value('variant'),
    registrationCodeId: value('link'),
  };
  const result = await callApi(getFunnelReport, { filter }, { ...args, token });
  return {
    email,
    permissions: session.permissions,
    selected: { language: filter.language, country: filter.country, variant: filter.variant, link: filter.registrationCodeId },
    report: result.ok ? result.data.funnelReport : null,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.adminFunnel.title', noIndex: true });

const ROW = 40;
const LABEL = 200;
const BAR = 300;

/** Server-rendered bars with their values written out; the table below carries the same numbers. */
function FunnelChart({ steps, title, description }: { steps: { label: string; count: FunnelCount; share: string }[]; title: string; description: string }) {
  const max = Math.max(1, ...steps.map((s) => s.count.sessions));
  const height = steps.length * ROW;
  return (
    <svg role="img" aria-labelledby="funnel-chart-title funnel-chart-desc" viewBox={`0 0 600 ${height}`} className="w-full text-ink" data-testid="funnel-chart">
      <title id="funnel-chart-title">{title}</title>
      <desc id="funnel-chart-desc">{description}</desc>
      {steps.map(({ label, count, share }, i) => {
        const width = Math.round((count.sessions / max) * BAR);
        const y = i * ROW;
        return (
          <g key={count.event} data-event={count.event}>
            <text x={0} y={y + 25} className="fill-current text-[13px]">{label}</text>
            <rect x={LABEL} y={y + 8} width={Math.max(width, 1)} height={ROW - 16} className="fill-current" />
            <text x={LABEL + Math.max(width, 1) + 8} y={y + 25} className="fill-current text-[13px] font-medium">{`${count.sessions} · ${share}`}</text>
          </g>
        );
      })}
    </svg>
  );
}

export default function AdminFunnel({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const intl = useIntl();
  const { report, selected, email } = loaderData;
  const regions = new Intl.DisplayNames([intl.locale], { type: 'region' });
  const landingSessions = report?.steps[0]?.sessions ?? 0;
  const share = (sessions: number) =>
    landingSessions ? intl.formatNumber(sessions / landingSessions, { style: 'percent', maximumFractionDigits: 1 }) : '–';
  const rows = (report?.steps ?? []).map((count) => ({ label: t(`admin.funnel.event.${count.event}`), count, share: share(count.sessions) }));
  const options = report?.options;
  const choices: Record<(typeof FILTERS)[number], { value: string; label: string }[]> = {
    language: (options?.languages ?? []).map((l) => ({ value: l, label: isLocale(l) ? LOCALE_NAMES[l] : l })),
    country: (options?.countries ?? []).map((c) => ({ value: c, label: `${regions.of(c) ?? c} (${c})` })),
    variant: (options?.variants ?? []).map((v) => ({ value: v, label: v })),
    link: (options?.invitationLinks ?? []).map((l) => ({ value: l.registrationCodeId, label: l.landingSlug ? `${l.code} (/${l.landingSlug})` : l.code })),
  };
  const labels: Record<(typeof FILTERS)[number], string> = {
    language: t('admin.funnel.language'),
    country: t('admin.funnel.country'),
    variant: t('admin.funnel.variant'),
    link: t('admin.funnel.link'),
  };

  return (
    <div>
      <AdminBar email={email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.funnel.title')} lead={t('admin.funnel.text')} />
      <Form method="get" className="mt-10 grid gap-4 bg-paper p-6 text-ink sm:grid-cols-2" aria-label={t('admin.funnel.filters')}>
        {FILTERS.map((name) => (
          <div key={name}>
            <label htmlFor={`funnel-${name}`} className="eyebrow block text-stone">{labels[name]}</label>
            <select id={`funnel-${name}`} name={name} defaultValue={selected[name] ?? ''} className="field-input mt-2">
              <option value="">{t('admin.funnel.all')}</option>
              {choices[name].map((c) => (
                <option key={c.value} value={c.value}>{c.label}</option>
              ))}
            </select>
          </div>
        ))}
        <button type="submit" className="btn-primary sm:col-span-2">{t('admin.funnel.apply')}</button>
      </Form>

      {!report ? (
        <p role="alert" className="mt-10 border-l-2 border-paper pl-4">{t('admin.funnel.error')}</p>
      ) : (
        <section aria-labelledby="funnel-title" className="mt-10 space-y-8 bg-paper p-6 text-ink">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="funnel-title" className="display text-2xl">{t('admin.funnel.chart')}</h2>
            <p className="text-sm text-stone" data-testid="funnel-total">{t('admin.funnel.total', { sessions: report.sessions })}</p>
          </div>
          {report.sessions === 0 ? (
            <p>{t('admin.funnel.empty')}</p>
          ) : (
            <FunnelChart steps={rows} title={t('admin.funnel.chart')} description={t('admin.funnel.chartDescription')} />
          )}
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('admin.funnel.chart')}</caption>
            <thead>
              <tr className="border-b border-line">
                <th scope="col" className="py-2 font-medium">{t('admin.funnel.step')}</th>
                <th scope="col" className="py-2 text-right font-medium">{t('admin.funnel.sessions')}</th>
                <th scope="col" className="py-2 text-right font-medium">{t('admin.funnel.events')}</th>
                <th scope="col" className="py-2 text-right font-medium">{t('admin.funnel.share')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ label, count, share: part }) => (
                <tr key={count.event} className="border-b border-line/60" data-testid={`funnel-row-${count.event}`}>
                  <th scope="row" className="py-2 font-normal">{label}</th>
                  <td className="py-2 text-right tabular-nums">{count.sessions}</td>
                  <td className="py-2 text-right tabular-nums">{count.events}</td>
                  <td className="py-2 text-right tabular-nums">{part}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div>
            <h3 className="eyebrow text-stone">{t('admin.funnel.other')}</h3>
            <table className="mt-3 w-full text-left text-sm">
              <caption className="sr-only">{t('admin.funnel.other')}</caption>
              <thead>
                <tr className="border-b border-line">
                  <th scope="col" className="py-2 font-medium">{t('admin.funnel.step')}</th>
                  <th scope="col" className="py-2 text-right font-medium">{t('admin.funnel.sessions')}</th>
                  <th scope="col" className="py-2 text-right font-medium">{t('admin.funnel.events')}</th>
                </tr>
              </thead>
              <tbody>
                {report.otherEvents.map((count) => (
                  <tr key={count.event} className="border-b border-line/60" data-testid={`funnel-row-${count.event}`}>
                    <th scope="row" className="py-2 font-normal">{t(`admin.funnel.event.${count.event}`)}</th>
                    <td className="py-2 text-right tabular-nums">{count.sessions}</td>
                    <td className="py-2 text-right tabular-nums">{count.events}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
