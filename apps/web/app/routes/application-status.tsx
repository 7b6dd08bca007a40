import { Form, Link, redirect } from 'react-router';
import { useIntl } from 'react-intl';
import type { Route } from './+types/application-status';
import { MessageScreen } from '../components/message-screen.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { dataLinkFromStatus, getApplicationStatus, withdrawByStatus } from '../lib/api/operations.ts';
import { localeContext } from '../lib/page/context.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** The reference every applicant's and waitlister's email carries (ADR 063): 128 random bits, base64url. */
const REFERENCE = /^[A-Za-z0-9_-]{22}$/;

/**
 * The status link (issue 24 §1, ADR 063): where an applicant or waitlister stands — received, on
 * the list, invited, declined — with an honest expected wait, and the way to withdraw the
 * application or leave the list. Opening it (GET) changes nothing (mail scanners open links too,
 * ADR 040); withdrawing is a button that posts. Rendered for one person: `private, no-store`
 * (not a public family, page-caching.server.ts) and noindex.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const reference = new URL(request.url).searchParams.get('ref') ?? '';
  if (!REFERENCE.test(reference)) return { reference: null, standing: null, notice: null };
  const result = await callApi(getApplicationStatus, { reference }, { request, context });
  if (!result.ok) return { reference, standing: null, notice: apiFailureMessage(result.error) };
  return { reference, standing: result.data.applicationStatus, notice: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const reference = String(formData.get('reference') ?? '');
  if (!REFERENCE.test(reference)) return { outcome: 'NOT_FOUND' as const, notice: null };
  if (formData.get('intent') === 'my-data') {
    // The way to the person's data (issue 24 §2, ADR 066): a fresh data link, to a fixed path of this site.
    const link = await callApi(dataLinkFromStatus, { reference }, { request, context });
    if (!link.ok) return { outcome: null, notice: apiFailureMessage(link.error) };
    const next = link.data.dataLinkFromStatus.reference;
    if (!next) return { outcome: 'NOT_FOUND' as const, notice: null };
    throw redirect(`${localizedPath(context.get(localeContext).prefix, '/my-data')}?ref=${next}`);
  }
  const result = await callApi(withdrawByStatus, { reference }, { request, context });
  if (!result.ok) return { outcome: null, notice: apiFailureMessage(result.error) };
  return { outcome: result.data.withdrawByStatus.outcome, notice: null };
}

/** The visitor's connection lost the form on its way: the page stays and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { outcome: null, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.applicationStatus.title', noIndex: true });

type Standing = NonNullable<Route.ComponentProps['loaderData']['standing']>;

export default function ApplicationStatus({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  const home = [{ label: t('nav.backToStart'), to: path('/'), variant: 'outline' as const }];
  const notice = actionData?.notice ?? loaderData.notice;
  if (actionData?.outcome === 'WITHDRAWN') return <MessageScreen title={t('status.withdrawn.title')} text={t('status.withdrawn.text')} actions={home} />;
  if (actionData?.outcome === 'LEFT') return <MessageScreen title={t('waitlistLeave.left.title')} text={t('waitlistLeave.left.text')} actions={home} />;
  if (notice && !loaderData.standing) {
    return (
      <MessageScreen title={t('status.unavailable.title')} actions={home}>
        <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(notice.id, notice.values)}</p>
      </MessageScreen>
    );
  }
  const { standing, reference } = loaderData;
  if (!standing || !reference || actionData?.outcome === 'NOT_FOUND' || actionData?.outcome === 'NOTHING_TO_WITHDRAW') {
    return <MessageScreen title={t('status.unknown.title')} text={t('status.unknown.text')} actions={home} />;
  }
  return (
    <MessageScreen eyebrow={t('status.eyebrow')} title={t(`status.${standing.state.toLowerCase() as Lowercase<Standing['state']>}.title`)} actions={home}>
      <StandingDetails standing={standing} />
      {notice && <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(notice.id, notice.values)}</p>}
      {standing.canWithdraw && <Withdraw reference={reference} state={standing.state} />}
      {standing.state === 'DECLINED' ? (
        // A decline keeps no address, only its pseudonym (ADR 063): the way to the data is the
        // form that sends a data link to the address the person types.
        <p className="mt-6 max-w-prose">
          <Link to={path('/my-data')} className="link">{t('status.myData')}</Link>
        </p>
      ) : (
        <Form method="post" className="mt-6 max-w-prose">
          <input type="hidden" name="reference" value={reference} />
          <button type="submit" name="intent" value="my-data" className="link">{t('status.myData')}</button>
        </Form>
      )}
    </MessageScreen>
  );
}

function StandingDetails({ standing }: { standing: Standing }) {
  const t = useT();
  const intl = useIntl();
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'long' });
  const waiting = standing.state === 'RECEIVED' || standing.state === 'WAITING';
  const weeks = standing.expectedWaitDays === null ? null : Math.max(1, Math.ceil(standing.expectedWaitDays / 7));
  return (
    <div className="mt-8 max-w-prose space-y-6">
      <p className="text-lg leading-relaxed">{t(`status.${standing.state.toLowerCase() as Lowercase<Standing['state']>}.text`)}</p>
      {standing.state === 'DECLINED' && standing.reason && <p className="border-l-2 border-ink pl-4 leading-relaxed">{standing.reason}</p>}
      <dl className="grid gap-x-8 gap-y-4 border-t border-line pt-6 sm:grid-cols-[auto_1fr]">
        <dt className="eyebrow text-stone">{t(standing.onWaitlist ? 'status.joinedOn' : 'status.appliedOn')}</dt>
        <dd>{date(standing.since)}</dd>
        {standing.decidedAt && (
          <>
            <dt className="eyebrow text-stone">{t(standing.state === 'DECLINED' ? 'status.declinedOn' : 'status.invitedOn')}</dt>
            <dd>{date(standing.decidedAt)}</dd>
          </>
        )}
        {standing.state === 'DECLINED' && standing.reapplyAfter && (
          <>
            <dt className="eyebrow text-stone">{t('status.reapplyFrom')}</dt>
            <dd>{date(standing.reapplyAfter)}</dd>
          </>
        )}
        {waiting && (
          <>
            <dt className="eyebrow text-stone">{t('status.expectedWait')}</dt>
            <dd>
              {weeks === null ? t('status.expectedWait.unknown') : t('status.expectedWait.weeks', { weeks })}
              <span className="mt-1 block text-sm text-stone">{t(weeks === null ? 'status.expectedWait.unknownHint' : 'status.expectedWait.hint')}</span>
            </dd>
          </>
        )}
      </dl>
      {standing.state === 'DECLINED' && <p className="leading-relaxed">{t('status.declined.wayOn')}</p>}
    </div>
  );
}

function Withdraw({ reference, state }: { reference: string; state: Standing['state'] }) {
  const t = useT();
  const busy = useSubmitting();
  const leave = state === 'WAITING';
  return (
    <Form method="post" className="mt-10 max-w-prose border-t border-line pt-6">
      <p className="text-sm leading-relaxed text-stone">{t(leave ? 'status.leave.text' : 'status.withdraw.text')}</p>
      <input type="hidden" name="reference" value={reference} />
      <button type="submit" className="btn-outline mt-4" disabled={busy}>{t(leave ? 'status.leave.button' : 'status.withdraw.button')}</button>
    </Form>
  );
}
