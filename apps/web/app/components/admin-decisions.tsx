/**
 * The console's decisions on applicants (issue 24 §1, ADR 063): the reason and button that
 * decline the ticked applicants, an address's history, the list of every decline (no addresses:
 * a decline keeps only the address's pseudonym), and the owner's decline reasons (seven
 * languages each) and cool-down. The API checks every permission; these only hide what it would refuse.
 */
import { useIntl } from 'react-intl';
import { Form } from 'react-router';
import { DECLINE_REASON_LANGUAGES } from '@velvet/validation/waitlist';
import { useSubmitting } from '../lib/forms/forms.ts';
import { useT } from '../lib/page/use-root.ts';
import { AdminTable } from './admin-table.tsx';

type ReasonLanguage = (typeof DECLINE_REASON_LANGUAGES)[number];

export interface DeclineReasonView {
  id: string;
  texts: Record<ReasonLanguage, string>;
}

export interface HistoryEntryView {
  kind: 'APPLIED' | 'SELECTED' | 'DECLINED';
  at: string;
  reason: string | null;
  decidedBy: string | null;
  reapplyAfter: string | null;
}

export interface DeclineView {
  id: string;
  declinedAt: string;
  reasonId: string;
  /** The reason in English, should the reasons no longer hold it. */
  reason: string | null;
  decidedBy: string | null;
  reapplyAfter: string;
  language: string;
}

/** The reason in the console's language when it is one of the seven, else English. */
function reasonText(reason: DeclineReasonView, locale: string): string {
  return (DECLINE_REASON_LANGUAGES as readonly string[]).includes(locale) ? reason.texts[locale as ReasonLanguage] : reason.texts.en;
}

/** Inside the ticked rows' form (`form` attribute): the reason, then the button that declines them. */
export function DeclineControls({ formId, reasons }: { formId: string; reasons: readonly DeclineReasonView[] }) {
  const t = useT();
  const { locale } = useIntl();
  const busy = useSubmitting('decline');
  return (
    <div className="flex w-full flex-wrap items-end gap-4 border-t border-paper/20 pt-4">
      <div>
        <label htmlFor="decline-reason" className="eyebrow block text-paper/80">{t('admin.decline.reason')}</label>
        <select id="decline-reason" name="reasonId" form={formId} defaultValue="" className="field-input mt-2 max-w-md">
          <option value="" disabled>{t('admin.decline.chooseReason')}</option>
          {reasons.map((reason) => (
            <option key={reason.id} value={reason.id}>{reasonText(reason, locale)}</option>
          ))}
        </select>
      </div>
      <button type="submit" form={formId} name="intent" value="decline" className="btn border-paper text-paper hover:bg-paper hover:text-ink" disabled={busy} aria-busy={busy}>
        {t(busy ? 'admin.decline.declining' : 'admin.decline.submit')}
      </button>
    </div>
  );
}

/** Everything held about one address's applications, newest first (declines by the address's pseudonym). */
export function ApplicantHistory({ email, entries }: { email: string; entries: readonly HistoryEntryView[] }) {
  const t = useT();
  const intl = useIntl();
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section aria-labelledby="history-title" className="mt-10 bg-paper p-8 text-ink">
      <h2 id="history-title" className="font-display text-2xl">{t('admin.decline.history.title', { email })}</h2>
      {entries.length === 0 ? (
        <p className="mt-4">{t('admin.decline.history.empty')}</p>
      ) : (
        <ol className="mt-6 grid gap-4">
          {entries.map((entry) => (
            <li key={`${entry.kind}-${entry.at}`} className="border-l-2 border-ink pl-4">
              <p>
                <span className="font-semibold">{t(`admin.decline.history.${entry.kind.toLowerCase() as 'applied' | 'selected' | 'declined'}`)}</span>{' '}
                <span className="text-stone">{date(entry.at)}</span>
              </p>
              {entry.kind === 'DECLINED' && (
                <p className="mt-1 text-sm">
                  {t('admin.decline.history.details', { reason: entry.reason ?? '—', admin: entry.decidedBy ?? '—', date: entry.reapplyAfter ? Date.parse(entry.reapplyAfter) : 0 })}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const languageName = (locale: string, language: string) => new Intl.DisplayNames([locale], { type: 'language' }).of(language) ?? language;

/** The decline reasons and the cool-down: the owner writes them, everyone else reads them. */
export function DeclineReasons({
  reasons,
  cooldownDays,
  canConfigure,
}: {
  reasons: readonly DeclineReasonView[];
  cooldownDays: number;
  canConfigure: boolean;
}) {
  const t = useT();
  return (
    <div className="mt-10 grid gap-10">
      <section aria-labelledby="cooldown-title" className="bg-paper p-8 text-ink">
        <h2 id="cooldown-title" className="font-display text-2xl">{t('admin.decline.cooldown.title')}</h2>
        <p className="mt-3 max-w-2xl">{t('admin.decline.cooldown.text', { days: cooldownDays })}</p>
        {canConfigure && <CooldownForm days={cooldownDays} />}
      </section>
      <section aria-labelledby="reasons-title" className="bg-paper p-8 text-ink">
        <h2 id="reasons-title" className="font-display text-2xl">{t('admin.decline.reasons.title')}</h2>
        <p className="mt-3 max-w-2xl">{t(canConfigure ? 'admin.decline.reasons.textOwner' : 'admin.decline.reasons.textRead')}</p>
        <ol className="mt-8 grid gap-10">
          {reasons.map((reason, index) => (
            <li key={`${reason.id}:${JSON.stringify(reason.texts)}`}>
              <ReasonForm reason={reason} label={t('admin.decline.reasons.number', { number: index + 1 })} canConfigure={canConfigure} />
            </li>
          ))}
        </ol>
        {canConfigure && (
          <div className="mt-10 border-t border-line pt-8">
            <ReasonForm key={`new-${reasons.length}`} reason={null} label={t('admin.decline.reasons.new')} canConfigure />
          </div>
        )}
      </section>
    </div>
  );
}

function CooldownForm({ days }: { days: number }) {
  const t = useT();
  const busy = useSubmitting('cooldown');
  return (
    <Form method="post" className="mt-6 flex flex-wrap items-end gap-4">
      <input type="hidden" name="intent" value="cooldown" />
      <div>
        <label htmlFor="cooldown-days" className="eyebrow block text-stone">{t('admin.decline.cooldown.label')}</label>
        <input id="cooldown-days" name="days" type="number" min={1} max={730} step={1} inputMode="numeric" defaultValue={days} key={days} className="field-input mt-2 w-40" />
      </div>
      <button type="submit" className="btn-primary" disabled={busy} aria-busy={busy}>{t(busy ? 'admin.waitlist.saving' : 'admin.decline.cooldown.save')}</button>
    </Form>
  );
}

function ReasonForm({ reason, label, canConfigure }: { reason: DeclineReasonView | null; label: string; canConfigure: boolean }) {
  const t = useT();
  const { locale } = useIntl();
  const busy = useSubmitting('reason');
  const id = reason?.id ?? 'new';
  return (
    <Form method="post" aria-label={label}>
      <h3 className="eyebrow text-stone">{label}</h3>
      <input type="hidden" name="intent" value="reason" />
      {reason && <input type="hidden" name="id" value={reason.id} />}
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        {DECLINE_REASON_LANGUAGES.map((language) => (
          <div key={language}>
            <label htmlFor={`reason-${id}-${language}`} className="block text-sm font-semibold">{languageName(locale, language)}</label>
            <textarea
              id={`reason-${id}-${language}`}
              name={language}
              lang={language}
              rows={2}
              maxLength={600}
              required
              readOnly={!canConfigure}
              defaultValue={reason?.texts[language] ?? ''}
              className="field-input mt-1 min-h-20"
            />
          </div>
        ))}
      </div>
      {canConfigure && (
        <button type="submit" className="btn-primary mt-4" disabled={busy} aria-busy={busy}>{t(reason ? 'admin.decline.reasons.save' : 'admin.decline.reasons.add')}</button>
      )}
    </Form>
  );
}

/** Every decline kept, newest first (the page's links turn the pages): filtered by reason and by the day declined. */
export function DeclineList({
  declines,
  reasons,
  filter,
}: {
  declines: readonly DeclineView[];
  reasons: readonly DeclineReasonView[];
  filter: { reason: string | null; day: string | null };
}) {
  const t = useT();
  const intl = useIntl();
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  const byId = new Map(reasons.map((reason) => [reason.id, reason]));
  const reasonOf = (row: DeclineView) => {
    const reason = byId.get(row.reasonId);
    return reason ? reasonText(reason, intl.locale) : (row.reason ?? '—');
  };
  return (
    <>
      <p className="mt-8 max-w-2xl text-paper/80">{t('admin.declines.text')}</p>
      <Form method="get" key={JSON.stringify(filter)} className="mt-6 grid gap-6 bg-paper p-8 text-ink sm:grid-cols-3">
        <input type="hidden" name="list" value="declines" />
        <div className="sm:col-span-2">
          <label htmlFor="declines-reason" className="eyebrow block text-stone">{t('admin.decline.reason')}</label>
          <select id="declines-reason" name="reason" defaultValue={filter.reason ?? ''} className="field-input mt-2">
            <option value="">{t('admin.declines.allReasons')}</option>
            {reasons.map((reason) => (
              <option key={reason.id} value={reason.id}>{reasonText(reason, intl.locale)}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="declines-day" className="eyebrow block text-stone">{t('admin.declines.day')}</label>
          <input id="declines-day" name="day" type="date" defaultValue={filter.day ?? ''} className="field-input mt-2" />
        </div>
        <button type="submit" className="btn-primary sm:col-span-3 sm:justify-self-start">{t('admin.waitlist.submitSearch')}</button>
      </Form>
      <AdminTable
        caption={t('admin.declines.tableLabel')}
        className="mt-10"
        minWidth="min-w-[48rem]"
        rows={declines}
        rowKey={(row) => row.id}
        rowTestId={() => 'decline-row'}
        empty={t('admin.declines.empty')}
        columns={[
          { header: t('admin.declines.col.declined'), rowHeader: true, className: 'whitespace-nowrap', cell: (row) => date(row.declinedAt) },
          { header: t('admin.declines.col.reason'), cell: reasonOf },
          { header: t('admin.declines.col.decidedBy'), className: 'break-all', cell: (row) => row.decidedBy ?? '—' },
          { header: t('admin.declines.col.until'), className: 'whitespace-nowrap', cell: (row) => date(row.reapplyAfter) },
          { header: t('admin.waitlist.col.language'), className: 'uppercase', cell: (row) => row.language },
        ]}
      />
    </>
  );
}
