import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { APPLICANT_STATUSES, DAY, WAITLIST_STATUSES, admissionCapacityForm, waitlistReleaseForm } from '@velvet/validation/waitlist';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { Form, Link, redirect, useRevalidator } from 'react-router';
import type { Route } from './+types/admin-waitlist';
import { AdminBar } from '../components/admin-bar.tsx';
import { AdminTable } from '../components/admin-table.tsx';
import type { Notice } from '../components/code-form.tsx';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { applicantsSelect, getApplicantsPage, getWaitlistPage, waitlistInvite, waitlistRelease, waitlistSetCapacity } from '../lib/admin/admin-waitlist-operations.ts';
import { applicantsDecline, applicationCooldownSet, declineReasonSave, getApplicantHistory, getDecisionSettings, getDeclinesPage } from '../lib/admin/admin-decision-operations.ts';
import { ApplicantHistory, DeclineControls, DeclineList, DeclineReasons } from '../components/admin-decisions.tsx';
import type { DeclineReasonView, DeclineView } from '../components/admin-decisions.tsx';
import { DECLINE_REASON_LANGUAGES } from '@velvet/validation/waitlist';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { useT } from '../lib/page/use-root.ts';

type List = 'waitlist' | 'applicants' | 'declines' | 'reasons';
const LISTS = ['waitlist', 'applicants', 'declines', 'reasons'] as const;
const LIST_TABS: Record<List, string> = { waitlist: 'admin.waitlist.tab', applicants: 'admin.applicants.tab', declines: 'admin.declines.tab', reasons: 'admin.decline.tab' };
/** A whole address typed in the search: the applicants view then shows its history (ADR 063). */
const WHOLE_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One row of either list. */
interface Row {
  id: string;
  email: string;
  language: string;
  arrivedAt: string;
  doneAt: string | null;
  isMember: boolean;
}

/**
 * The waiting list and the applicants (ADR 047): search, page (on the server, 50 a page), tick
 * and invite; "invite the next N" with a confirmation and its progress while the emails are
 * queued; the daily admission capacity. Reading is every role's; the rest needs waitlist.manage.
 * Applicants are declined with a reason, and a whole address searched shows its history; the
 * reasons and the cool-down are a tab of their own, written by the owner (issue 24 §1, ADR 063);
 * every decline kept is a list of its own, newest first, by reason and day — without addresses.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, token, session } = await requireAdmin(args);
  const search = new URL(args.request.url).searchParams;
  const list: List = (LISTS as readonly string[]).includes(search.get('list') ?? '') ? (search.get('list') as List) : 'waitlist';
  const statuses: readonly string[] = list === 'waitlist' ? WAITLIST_STATUSES : APPLICANT_STATUSES;
  const status = statuses.includes(search.get('status') ?? '') ? (search.get('status') as string) : statuses[0]!;
  const filter = {
    search: search.get('search')?.trim().slice(0, 254) || null,
    day: DAY.test(search.get('day') ?? '') ? search.get('day') : null,
    status: list === 'declines' ? '' : status,
    reason: list === 'declines' ? search.get('reason')?.slice(0, 100) || null : null,
  };
  const after = search.get('after')?.slice(0, 600) || null;
  const call = { ...args, token };
  const base = {
    email,
    permissions: session.permissions,
    canManage: session.permissions.includes('waitlist.manage'),
    canConfigure: session.permissions.includes('decisions.configure'),
    list,
    filter,
    after,
    reasons: [] as DeclineReasonView[],
    cooldownDays: 0,
    declines: null as DeclineView[] | null,
    history: null as { email: string; entries: { kind: 'APPLIED' | 'SELECTED' | 'DECLINED'; at: string; reason: string | null; decidedBy: string | null; reapplyAfter: string | null }[] } | null,
  };
  if (list === 'reasons') {
    const settings = await callApi(getDecisionSettings, {}, call);
    if (!settings.ok) return { ...base, rows: null, nextCursor: null, admission: null, notice: apiFailureMessage(settings.error) };
    return { ...base, reasons: settings.data.declineReasons, cooldownDays: settings.data.applicationCooldownDays, rows: null, nextCursor: null, admission: null, notice: null };
  }
  if (list === 'declines') {
    const result = await callApi(getDeclinesPage, { reasonId: filter.reason, day: filter.day, after }, call);
    if (!result.ok) return { ...base, rows: null, nextCursor: null, admission: null, notice: apiFailureMessage(result.error) };
    const { applicationDeclines, declineReasons } = result.data;
    return { ...base, reasons: declineReasons, declines: applicationDeclines.entries, rows: null, nextCursor: applicationDeclines.nextCursor, admission: null, notice: null };
  }
  if (list === 'waitlist') {
    const result = await callApi(getWaitlistPage, { ...filter, status: status.toUpperCase() as 'WAITING' | 'INVITED' | 'ALL', after }, call);
    if (!result.ok) return { ...base, rows: null, nextCursor: null, admission: null, notice: apiFailureMessage(result.error) };
    const { waitlist, waitlistAdmission } = result.data;
    const rows: Row[] = waitlist.entries.map((e) => ({ id: e.id, email: e.email, language: e.language, arrivedAt: e.joinedAt, doneAt: e.invitedAt, isMember: e.isMember }));
    return { ...base, rows, nextCursor: waitlist.nextCursor, admission: waitlistAdmission, notice: null };
  }
  const wholeAddress = filter.search && WHOLE_ADDRESS.test(filter.search) ? filter.search.toLowerCase() : null;
  const [result, settings, history] = await Promise.all([
    callApi(getApplicantsPage, { ...filter, status: status.toUpperCase() as 'OPEN' | 'SELECTED' | 'ALL', after }, call),
    callApi(getDecisionSettings, {}, call),
    wholeAddress ? callApi(getApplicantHistory, { email: wholeAddress }, call) : null,
  ]);
  if (!result.ok) return { ...base, rows: null, nextCursor: null, admission: null, notice: apiFailureMessage(result.error) };
  const rows: Row[] = result.data.applicants.entries.map((e) => ({ id: e.id, email: e.email, language: e.language, arrivedAt: e.appliedAt, doneAt: e.selectedAt, isMember: e.isMember }));
  return {
    ...base,
    reasons: settings.ok ? settings.data.declineReasons : [],
    history: wholeAddress && history?.ok ? { email: wholeAddress, entries: history.data.applicantHistory } : null,
    rows,
    nextCursor: result.data.applicants.nextCursor,
    admission: null,
    notice: null,
  };
}

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  const call = { ...args, token };
  const notice = (value: Notice) => ({ kind: 'notice' as const, notice: value });
  if (intent === 'invite') {
    const ids = formData.getAll('ids').filter((v): v is string => typeof v === 'string').slice(0, 101);
    if (ids.length === 0) return notice({ id: 'admin.waitlist.selection.empty' });
    const done = formData.get('list') === 'applicants' ? await callApi(applicantsSelect, { ids }, call) : await callApi(waitlistInvite, { ids }, call);
    if (!done.ok) return notice(apiFailureMessage(done.error));
    const payload = 'applicantsSelect' in done.data ? done.data.applicantsSelect : done.data.waitlistInvite;
    const invalid = payload.userErrors.find((e) => e.code === 'INVALID_FIELD');
    if (invalid) return notice({ id: invalid.messageId });
    return { kind: 'invited' as const, invited: payload.invited.length, refused: payload.userErrors.map((e) => e.messageId) };
  }
  if (intent === 'decline') {
    const ids = formData.getAll('ids').filter((v): v is string => typeof v === 'string').slice(0, 101);
    if (ids.length === 0) return notice({ id: 'admin.waitlist.selection.empty' });
    const reasonId = String(formData.get('reasonId') ?? '');
    if (!reasonId) return notice({ id: 'admin.decline.reasonMissing' });
    const done = await callApi(applicantsDecline, { ids, reasonId }, call);
    if (!done.ok) return notice(apiFailureMessage(done.error));
    const payload = done.data.applicantsDecline;
    const refusedAll = payload.userErrors.find((e) => e.code === 'INVALID_FIELD' || e.code === 'REASON_NOT_FOUND');
    if (refusedAll) return notice({ id: refusedAll.messageId });
    return { kind: 'declined' as const, declined: payload.declined.length, refused: payload.userErrors.map((e) => e.messageId) };
  }
  if (intent === 'reason') {
    const texts = Object.fromEntries(DECLINE_REASON_LANGUAGES.map((language) => [language, String(formData.get(language) ?? '').slice(0, 2000)])) as Record<(typeof DECLINE_REASON_LANGUAGES)[number], string>;
    const id = String(formData.get('id') ?? '') || null;
    const done = await callApi(declineReasonSave, { input: { ...texts, id } }, call);
    if (!done.ok) return notice(apiFailureMessage(done.error));
    const [error] = done.data.declineReasonSave.userErrors;
    if (error) return notice({ id: error.messageId, values: { language: error.field ?? '' } });
    return { kind: 'saved' as const, message: 'admin.decline.reasons.saved' };
  }
  if (intent === 'cooldown') {
    const days = Number(formData.get('days'));
    if (!Number.isInteger(days)) return notice({ id: 'admin.decline.cooldown.invalid' });
    const done = await callApi(applicationCooldownSet, { days }, call);
    if (!done.ok) return notice(apiFailureMessage(done.error));
    const [error] = done.data.applicationCooldownSet.userErrors;
    if (error) return notice({ id: error.messageId });
    return { kind: 'saved' as const, message: 'admin.decline.cooldown.saved' };
  }
  if (intent === 'capacity') {
    const submission = parseWithZod(formData, { schema: admissionCapacityForm });
    if (submission.status !== 'success') return { kind: 'capacity' as const, result: submission.reply() };
    const done = await callApi(waitlistSetCapacity, { dailyLimit: submission.value.dailyLimit }, call);
    if (!done.ok) return notice(apiFailureMessage(done.error));
    const errors = done.data.waitlistSetCapacity.userErrors;
    return { kind: 'capacity' as const, result: submission.reply(errors.length ? { fieldErrors: { dailyLimit: errors.map((e) => e.messageId) } } : { resetForm: false }), saved: errors.length === 0 };
  }
  const submission = parseWithZod(formData, { schema: waitlistReleaseForm });
  if (submission.status !== 'success') return { kind: 'release' as const, result: submission.reply() };
  // Invites many people at once: the first post asks, the second (confirmed) does it.
  if (formData.get('confirmed') !== 'yes') return { kind: 'confirm-release' as const, count: submission.value.count };
  const done = await callApi(waitlistRelease, { count: submission.value.count }, call);
  if (!done.ok) return notice(apiFailureMessage(done.error));
  const { release, userErrors } = done.data.waitlistRelease;
  if (!release) return { kind: 'release' as const, result: submission.reply({ fieldErrors: { count: userErrors.map((e) => e.messageId) } }) };
  // Post, then redirect: reloading the page (halfway through a big batch) asks the database how
  // far it is, and never sends the batch a second time.
  return redirect(localizedPath(args.context.get(localeContext).prefix, '/admin/waitlist', 'list=waitlist'));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'admin.waitlist.title', noIndex: true });

type LoaderData = Route.ComponentProps['loaderData'];
type ActionData = Route.ComponentProps['actionData'];

export default function AdminWaitlist({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { list, filter, rows, canManage } = loaderData;
  const notice = loaderData.notice ?? (actionData?.kind === 'notice' ? actionData.notice : null);
  const query = (extra: Record<string, string>) =>
    `?${new URLSearchParams({ list, ...Object.fromEntries(Object.entries(filter).flatMap(([k, v]) => (v ? [[k, v]] : []))), ...extra }).toString()}`;
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.waitlist.title')} />
      <p className="mt-4 max-w-2xl text-paper/80">{t('admin.waitlist.text')}</p>
      <nav aria-label={t('admin.waitlist.lists')} className="mt-8">
        <ul className="flex flex-wrap gap-x-6 gap-y-2 border-b border-paper/20">
          {LISTS.map((name) => (
            <li key={name}>
              <Link
                to={`?list=${name}`}
                aria-current={list === name ? 'page' : undefined}
                className="inline-block pb-3 text-paper underline-offset-8 hover:underline aria-[current=page]:underline aria-[current=page]:decoration-2"
              >
                {t(LIST_TABS[name])}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {notice && <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t(notice.id, notice.values)}</p>}
      {actionData?.kind === 'saved' && <p role="status" className="mt-8 border-l-2 border-paper pl-4">{t(actionData.message)}</p>}
      {list === 'reasons' && <DeclineReasons reasons={loaderData.reasons} cooldownDays={loaderData.cooldownDays} canConfigure={loaderData.canConfigure} />}
      {list === 'waitlist' && loaderData.admission && <Admission admission={loaderData.admission} canManage={canManage} actionData={actionData} />}
      {list === 'declines' && loaderData.declines && <DeclineList declines={loaderData.declines} reasons={loaderData.reasons} filter={filter} />}
      {(list === 'waitlist' || list === 'applicants') && <Form method="get" key={`${list}:${JSON.stringify(filter)}`} className="mt-10 grid gap-6 bg-paper p-8 text-ink sm:grid-cols-4">
        <input type="hidden" name="list" value={list} />
        <div className="sm:col-span-2">
          <label htmlFor="list-search" className="eyebrow block text-stone">{t('admin.waitlist.search')}</label>
          <input id="list-search" name="search" type="search" defaultValue={filter.search ?? ''} className="field-input mt-2" />
        </div>
        <div>
          <label htmlFor="list-day" className="eyebrow block text-stone">{t('admin.waitlist.day')}</label>
          <input id="list-day" name="day" type="date" defaultValue={filter.day ?? ''} className="field-input mt-2" />
        </div>
        <div>
          <label htmlFor="list-status" className="eyebrow block text-stone">{t('admin.waitlist.status')}</label>
          <select id="list-status" name="status" defaultValue={filter.status} className="field-input mt-2">
            {(list === 'waitlist' ? WAITLIST_STATUSES : APPLICANT_STATUSES).map((s) => (
              <option key={s} value={s}>{t(`admin.${list === 'waitlist' ? 'waitlist' : 'applicants'}.status.${s}`)}</option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary sm:col-span-4 sm:justify-self-start">{t('admin.waitlist.submitSearch')}</button>
      </Form>}
      {loaderData.history && <ApplicantHistory email={loaderData.history.email} entries={loaderData.history.entries} />}
      {actionData?.kind === 'declined' && (
        <div role="status" className="mt-8 border-l-2 border-paper pl-4">
          <p>{t('admin.decline.declined', { count: actionData.declined })}</p>
          {actionData.refused.length > 0 && <p className="mt-2">{t('admin.waitlist.refusedSome', { count: actionData.refused.length })}</p>}
        </div>
      )}
      {actionData?.kind === 'invited' && (
        <div role="status" className="mt-8 border-l-2 border-paper pl-4">
          <p>{t('admin.waitlist.invited', { count: actionData.invited })}</p>
          {actionData.refused.length > 0 && <p className="mt-2">{t('admin.waitlist.refusedSome', { count: actionData.refused.length })}</p>}
        </div>
      )}
      {rows && (list === 'waitlist' || list === 'applicants') && <Table list={list} rows={rows} canManage={canManage} reasons={loaderData.reasons} />}
      <div className="mt-8 flex flex-wrap gap-4">
        {loaderData.after && <Link to={query({})} className="btn-inverse border border-paper">{t('admin.waitlist.firstPage')}</Link>}
        {loaderData.nextCursor && <Link to={query({ after: loaderData.nextCursor })} className="btn-inverse border border-paper">{t('admin.waitlist.nextPage')}</Link>}
      </div>
    </div>
  );
}

function Table({ list, rows, canManage, reasons }: { list: 'waitlist' | 'applicants'; rows: Row[]; canManage: boolean; reasons: readonly DeclineReasonView[] }) {
  const t = useT();
  const intl = useIntl();
  const busy = useSubmitting('invite');
  const ns = list === 'waitlist' ? 'admin.waitlist' : 'admin.applicants';
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <>
      {canManage && (
        <Form method="post" id="invite-form" className="mt-10 flex flex-wrap items-center gap-4">
          <input type="hidden" name="list" value={list} />
          <button type="submit" name="intent" value="invite" className="btn-inverse" disabled={busy} aria-busy={busy}>
            {t(busy ? 'admin.waitlist.inviting' : `${ns}.inviteSelected`)}
          </button>
          <button
            type="button"
            className="link text-paper"
            onClick={() => {
              for (const box of document.querySelectorAll<HTMLInputElement>('input[form="invite-form"][name="ids"]')) box.checked = true;
            }}
          >
            {t('admin.waitlist.tickAll')}
          </button>
          {list === 'applicants' && reasons.length > 0 && <DeclineControls formId="invite-form" reasons={reasons} />}
        </Form>
      )}
      <AdminTable
        caption={t(`${ns}.tableLabel`)}
        className="mt-6"
        minWidth="min-w-[40rem]"
        rows={rows}
        rowKey={(row) => row.id}
        empty={t('admin.waitlist.empty')}
        columns={[
          canManage && {
            header: t('admin.waitlist.col.select'),
            cell: (row) =>
              !row.doneAt &&
              !row.isMember && (
                <input type="checkbox" name="ids" value={row.id} form="invite-form" className="size-5" aria-label={t('admin.waitlist.selectRow', { email: row.email })} />
              ),
          },
          { header: t('admin.waitlist.col.email'), rowHeader: true, className: 'break-all', cell: (row) => row.email },
          { header: t('admin.waitlist.col.language'), className: 'uppercase', cell: (row) => row.language },
          { header: t(`${ns}.col.arrived`), className: 'whitespace-nowrap', cell: (row) => date(row.arrivedAt) },
          {
            header: t(`${ns}.col.done`),
            className: 'whitespace-nowrap',
            cell: (row) => (row.doneAt ? date(row.doneAt) : row.isMember ? t('admin.waitlist.member') : t(`${ns}.notYet`)),
          },
        ]}
      />
    </>
  );
}

function Admission({ admission, canManage, actionData }: { admission: NonNullable<LoaderData['admission']>; canManage: boolean; actionData: ActionData }) {
  const t = useT();
  const intl = useIntl();
  const revalidator = useRevalidator();
  const running = admission.releases.some((r) => r.running);
  // While emails are being queued the page follows the progress (a reload shows the same: it is in the database).
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const confirm = actionData?.kind === 'confirm-release' ? actionData.count : null;
  return (
    <section aria-labelledby="admission-title" className="mt-10 grid gap-8 bg-paper p-8 text-ink lg:grid-cols-2">
      <h2 id="admission-title" className="font-display text-2xl lg:col-span-2">{t('admin.waitlist.admission')}</h2>
      <div>
        <p role="status">
          {admission.dailyLimit > 0
            ? t('admin.waitlist.capacity.today', { admitted: admission.admittedToday, limit: admission.dailyLimit, timeZone: zoneName(intl.locale, admission.timeZone) })
            : t('admin.waitlist.capacity.off', { admitted: admission.admittedToday, timeZone: zoneName(intl.locale, admission.timeZone) })}
        </p>
        {canManage && <CapacityForm dailyLimit={admission.dailyLimit} timeZone={admission.timeZone} actionData={actionData} />}
      </div>
      <div>
        {canManage && (confirm !== null ? <ConfirmRelease count={confirm} /> : <ReleaseForm actionData={actionData} />)}
        {admission.releases.length > 0 && (
          <>
            <h3 className="eyebrow mt-8 text-stone">{t('admin.waitlist.releases')}</h3>
            <ul className="mt-3 grid gap-4">
              {admission.releases.map((release) => (
                <li key={release.id}>
                  <div className="flex flex-wrap justify-between gap-2 text-sm">
                    <span role={release.running ? 'status' : undefined}>
                      {t('admin.waitlist.release.progress', { invited: release.invited, requested: release.requested })}
                      {release.running ? ` — ${t('admin.waitlist.release.running')}` : ''}
                    </span>
                    <span className="text-stone">
                      {intl.formatDate(release.createdAt, { dateStyle: 'short', timeStyle: 'short' })}
                      {release.actorEmail ? ` · ${release.actorEmail}` : ''}
                    </span>
                  </div>
                  <progress
                    className="mt-2 block h-2 w-full appearance-none bg-line [&::-moz-progress-bar]:bg-ink [&::-webkit-progress-bar]:bg-line [&::-webkit-progress-value]:bg-ink"
                    max={release.requested}
                    value={release.invited}
                    aria-label={t('admin.waitlist.release.progress', { invited: release.invited, requested: release.requested })}
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

/**
 * The club's time zone as the page's language names it ("Mitteleuropäische Zeit", "czas
 * środkowoeuropejski"), not its IANA id (translation review of 27 Nov, X5).
 */
function zoneName(locale: string, timeZone: string): string {
  const named = (timeZoneName: 'longGeneric' | 'long') =>
    new Intl.DateTimeFormat(locale, { timeZone, timeZoneName }).formatToParts(new Date()).find((part) => part.type === 'timeZoneName')?.value;
  try {
    // A zone without a generic name (UTC) is given as an offset ("GMT+00:00"): its long name then.
    const generic = named('longGeneric');
    return (generic && !generic.startsWith('GMT') ? generic : named('long')) ?? timeZone;
  } catch {
    return timeZone;
  }
}

function CapacityForm({ dailyLimit, timeZone, actionData }: { dailyLimit: number; timeZone: string; actionData: ActionData }) {
  const t = useT();
  const { locale } = useIntl();
  const busy = useSubmitting('capacity');
  const [form, fields] = useForm<{ dailyLimit: string }>({
    id: 'capacity',
    lastResult: actionData?.kind === 'capacity' ? actionData.result : undefined,
    defaultValue: { dailyLimit: String(dailyLimit) },
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-6">
      <input type="hidden" name="intent" value="capacity" />
      <label htmlFor={fields.dailyLimit.id} className="eyebrow block text-stone">{t('admin.waitlist.capacity.label')}</label>
      <p id="capacity-hint" className="mt-1 text-sm text-stone">{t('admin.waitlist.capacity.hint', { timeZone: zoneName(locale, timeZone) })}</p>
      <div className="mt-2 flex flex-wrap gap-4">
        <input
          {...getInputProps(fields.dailyLimit, { type: 'number' })}
          key={String(dailyLimit)}
          min={0}
          step={1}
          inputMode="numeric"
          className="field-input w-40"
          aria-describedby={[describedBy(fields.dailyLimit), 'capacity-hint'].filter(Boolean).join(' ')}
        />
        <button type="submit" className="btn-primary" disabled={busy} aria-busy={busy}>{t(busy ? 'admin.waitlist.saving' : 'admin.waitlist.capacity.save')}</button>
      </div>
      <FieldErrors field={fields.dailyLimit} />
      {actionData?.kind === 'capacity' && actionData.saved && <p role="status" className="text-sm">{t('admin.waitlist.capacity.saved')}</p>}
    </Form>
  );
}

function ReleaseForm({ actionData }: { actionData: ActionData }) {
  const t = useT();
  const busy = useSubmitting('release');
  const [form, fields] = useForm<{ count: string }>({
    id: 'release',
    lastResult: actionData?.kind === 'release' ? actionData.result : undefined,
    defaultValue: { count: '200' },
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <input type="hidden" name="intent" value="release" />
      <label htmlFor={fields.count.id} className="eyebrow block text-stone">{t('admin.waitlist.release.count')}</label>
      <p id="release-hint" className="mt-1 text-sm text-stone">{t('admin.waitlist.release.hint')}</p>
      <div className="mt-2 flex flex-wrap gap-4">
        <input
          {...getInputProps(fields.count, { type: 'number' })}
          min={1}
          step={1}
          inputMode="numeric"
          className="field-input w-40"
          aria-describedby={[describedBy(fields.count), 'release-hint'].filter(Boolean).join(' ')}
        />
        <button type="submit" className="btn-primary" disabled={busy} aria-busy={busy}>{t('admin.waitlist.release.submit')}</button>
      </div>
      <FieldErrors field={fields.count} />
    </Form>
  );
}

function ConfirmRelease({ count }: { count: number }) {
  const t = useT();
  const busy = useSubmitting('release');
  return (
    <div role="alertdialog" aria-labelledby="confirm-release" aria-describedby="confirm-release-text" className="border-2 border-ink p-6">
      <h3 id="confirm-release" className="font-display text-xl">{t('admin.waitlist.release.question', { count })}</h3>
      <p id="confirm-release-text" className="mt-3">{t('admin.waitlist.release.questionText')}</p>
      <Form method="post" className="mt-6 flex flex-wrap gap-4">
        <input type="hidden" name="intent" value="release" />
        <input type="hidden" name="count" value={count} />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className="btn-primary" disabled={busy} aria-busy={busy}>{t(busy ? 'admin.waitlist.release.queuing' : 'admin.waitlist.release.confirm')}</button>
        <Link to="?list=waitlist" className="btn-inverse border border-ink">{t('admin.waitlist.release.cancel')}</Link>
      </Form>
    </div>
  );
}
