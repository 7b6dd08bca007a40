import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { Form } from 'react-router';
import { emailForm } from '@velvet/validation/registration';
import type { Route } from './+types/my-data';
import { FormGuard } from '../components/form-guard.tsx';
import { MessageScreen } from '../components/message-screen.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { eraseOwnData, ownData, ownDataExport, requestDataLink, withdrawOwnNewsletter } from '../lib/api/operations.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../lib/forms/form-guard.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';

/** A data link's reference (ADR 066): 128 random bits, base64url. */
const REFERENCE = /^[A-Za-z0-9_-]{22}$/;
/** The longest free-text request (the API cuts at the same length). */
const MESSAGE_MAX = 2000;

/**
 * "Manage my data" (issue 24 §2, ADR 066): people at the door — applicants, waitlisters, invitees
 * whose registration is pending — have no account. Without a link this page is the request form
 * (an address, and optionally a request in their own words): the answer is the same whether the
 * club knows the address or not, and the link goes to the address by email. With a link
 * (?ref=, from that email or the footer of any email of the door) it shows what the club holds,
 * in the reader's language, and lets them download it (JSON, the admin export's schema), withdraw
 * newsletter consent, or delete it after a confirmation. Opening it (GET) changes nothing (mail
 * scanners open links too); every change is a post. Rendered for one person: `private, no-store`
 * (not a public family) and noindex.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const reference = new URL(request.url).searchParams.get('ref') ?? '';
  if (!REFERENCE.test(reference)) return { reference: null, data: null, notice: null };
  const result = await callApi(ownData, { reference }, { request, context });
  if (!result.ok) return { reference, data: null, notice: apiFailureMessage(result.error) };
  return { reference, data: result.data.ownData, notice: null };
}

type Notice = { id: string; values?: Record<string, string | number> };
type ActionResult =
  | { intent: 'request'; sent: boolean; errors: string[]; notice: Notice | null }
  | { intent: 'download'; download: { fileName: string; document: string } | null; notice: Notice | null }
  | { intent: 'confirm-erase'; notice: null }
  | { intent: 'erase'; outcome: string | null; notice: Notice | null }
  | { intent: 'newsletter'; outcome: string | null; notice: Notice | null };

export async function action({ request, context }: Route.ActionArgs): Promise<ActionResult> {
  const formData = await request.formData();
  const intent = String(formData.get('intent') ?? 'request');
  const reference = String(formData.get('reference') ?? '');
  const { locale } = context.get(localeContext);
  const args = { request, context };
  if (intent === 'request') {
    const submission = parseWithZod(formData, { schema: emailForm });
    if (submission.status !== 'success') return { intent, sent: false, errors: submission.error?.email ?? ['validation.email'], notice: null };
    // A script: "we have sent a link", as a person would read, and no email (ADR 041).
    if (isScriptedSubmission(formData, context)) return { intent, sent: true, errors: [], notice: null };
    const message = String(formData.get('message') ?? '').slice(0, MESSAGE_MAX);
    const result = await callApi(requestDataLink, { email: submission.value.email, language: locale, proofOfWork: proofOfWorkOf(formData), message }, args);
    if (!result.ok) return { intent, sent: false, errors: [], notice: apiFailureMessage(result.error) };
    const { sent, userErrors } = result.data.requestDataLink;
    return { intent, sent, errors: userErrors.map((e) => e.messageId), notice: null };
  }
  if (!REFERENCE.test(reference)) return { intent: 'erase', outcome: 'NOT_FOUND', notice: null };
  if (intent === 'download') {
    const result = await callApi(ownDataExport, { reference }, args);
    if (!result.ok) return { intent, download: null, notice: apiFailureMessage(result.error) };
    return { intent, download: result.data.ownDataExport ?? null, notice: result.data.ownDataExport ? null : { id: 'myData.nothingHeld.title' } };
  }
  if (intent === 'newsletter') {
    const result = await callApi(withdrawOwnNewsletter, { reference }, args);
    if (!result.ok) return { intent, outcome: null, notice: apiFailureMessage(result.error) };
    return { intent, outcome: result.data.withdrawOwnNewsletter.outcome, notice: null };
  }
  if (intent === 'erase' && formData.get('confirmed') === 'yes') {
    const result = await callApi(eraseOwnData, { reference, language: locale }, args);
    if (!result.ok) return { intent, outcome: null, notice: apiFailureMessage(result.error) };
    return { intent, outcome: result.data.eraseOwnData.outcome, notice: null };
  }
  return { intent: 'confirm-erase', notice: null };
}

/** The visitor's connection lost the form on its way: the page stays and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { intent: 'request' as const, sent: false, errors: [], notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.myData.title', noIndex: true });

type OwnData = NonNullable<Route.ComponentProps['loaderData']['data']>;

export default function MyData({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  const home = [{ label: t('nav.backToStart'), to: path('/'), variant: 'outline' as const }];
  const { data, reference } = loaderData;
  const notice = actionData?.notice ?? loaderData.notice;
  if (actionData?.intent === 'erase' && actionData.outcome === 'ERASED') return <MessageScreen title={t('myData.erased.title')} text={t('myData.erased.text')} actions={home} />;
  if (actionData?.intent === 'erase' && actionData.outcome === 'REQUESTED') return <MessageScreen title={t('myData.requested.title')} text={t('myData.requested.text')} actions={home} />;
  if (!reference || !data || data.state !== 'OK' || (actionData && 'outcome' in actionData && actionData.outcome === 'NOT_FOUND')) {
    const lead = reference ? (data?.state === 'EXPIRED' ? 'myData.expired.text' : 'myData.invalid.text') : 'myData.request.text';
    return (
      <MessageScreen eyebrow={t('myData.eyebrow')} title={t(reference ? (data?.state === 'EXPIRED' ? 'myData.expired.title' : 'myData.invalid.title') : 'myData.request.title')} text={t(lead)}>
        {notice && <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(notice.id, notice.values)}</p>}
        <RequestForm result={actionData?.intent === 'request' ? actionData : null} />
      </MessageScreen>
    );
  }
  return (
    <MessageScreen eyebrow={t('myData.eyebrow')} title={t('myData.title')} text={t('myData.lead', { email: data.email ?? '' })} actions={home}>
      {notice && <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(notice.id, notice.values)}</p>}
      {actionData?.intent === 'newsletter' && actionData.outcome && (
        <p role="status" className="mt-6 border-l-2 border-ink pl-4">{t(actionData.outcome === 'WITHDRAWN' ? 'myData.newsletter.withdrawn' : 'myData.newsletter.none')}</p>
      )}
      <Held data={data} newsletterWithdrawn={actionData?.intent === 'newsletter' && actionData.outcome === 'WITHDRAWN'} />
      <Actions data={data} reference={reference} confirming={actionData?.intent === 'confirm-erase'} newsletterWithdrawn={actionData?.intent === 'newsletter' && actionData.outcome === 'WITHDRAWN'} />
      {actionData?.intent === 'download' && actionData.download && <Download key={actionData.download.fileName} {...actionData.download} />}
    </MessageScreen>
  );
}

/** The request form: an address and, optionally, a request in the person's own words. */
function RequestForm({ result }: { result: Extract<ActionResult, { intent: 'request' }> | null }) {
  const t = useT();
  const busy = useSubmitting();
  if (result?.sent) return <p role="status" className="mt-8 max-w-prose border-l-2 border-ink pl-4 text-lg leading-relaxed">{t('myData.request.sent')}</p>;
  const error = result?.errors[0];
  return (
    <Form method="post" className="mt-8 max-w-prose space-y-6" noValidate>
      <FormGuard proofOfWork={{ form: 'WAITING_LIST' }} />
      <input type="hidden" name="intent" value="request" />
      <div>
        <label htmlFor="my-data-email" className="eyebrow block text-stone">{t('myData.request.email')}</label>
        <input
          id="my-data-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={320}
          className="field-input mt-2"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'my-data-email-error' : undefined}
        />
        {error && <p id="my-data-email-error" role="alert" className="mt-2 text-sm text-alert">{t(error)}</p>}
      </div>
      <div>
        <label htmlFor="my-data-message" className="eyebrow block text-stone">{t('myData.request.message')}</label>
        <textarea id="my-data-message" name="message" rows={3} maxLength={MESSAGE_MAX} aria-describedby="my-data-message-hint" className="field-input mt-2" />
        <p id="my-data-message-hint" className="mt-2 text-sm text-stone">{t('myData.request.messageHint')}</p>
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>{t('myData.request.button')}</button>
    </Form>
  );
}

interface ExportDocument {
  registration: { firstName: string; lastName: string; status: string; country: string | null; language: string | null; createdAt: string } | null;
  heldRegistrations: unknown[];
  waitingList: { joinedAt: string; invitedAt: string | null; language: string } | null;
  application: { createdAt: string; selectedAt: string | null; country: string | null; language: string } | null;
  consentRecords: unknown[];
  emails: { template: string }[];
}

/** What the club holds, in the reader's language: one line per kind, the dates long. */
function Held({ data, newsletterWithdrawn }: { data: OwnData; newsletterWithdrawn: boolean }) {
  const t = useT();
  const intl = useIntl();
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'long' });
  // Country and language in the reader's language; what is not known is left out.
  const joinKnown = (first: string, ...known: (string | null)[]) => [first, ...known.filter((v): v is string => Boolean(v))].join(' · ');
  const language = (code: string | null) => (code ? (new Intl.DisplayNames([intl.locale], { type: 'language' }).of(code) ?? code) : null);
  const country = (code: string | null) => (code ? (new Intl.DisplayNames([intl.locale], { type: 'region' }).of(code) ?? code) : null);
  if (!data.document) return <p className="mt-8 max-w-prose text-lg leading-relaxed">{t('myData.nothingHeld.text')}</p>;
  const held = JSON.parse(data.document) as ExportDocument;
  const { application, waitingList, registration } = held;
  // Someone the club knows nothing else about: the email that brought this link is all it keeps.
  if (!application && !waitingList && !registration && held.heldRegistrations.length === 0 && held.consentRecords.length === 0 && held.emails.every((e) => e.template === 'data-link')) {
    return (
      <div className="mt-8 max-w-prose space-y-4 leading-relaxed">
        <p className="text-lg">{t('myData.nothingHeld.text')}</p>
        <p>{t('myData.nothingHeld.linkEmail', { days: data.sentEmailsKeptDays })}</p>
      </div>
    );
  }
  const rows: { label: string; value: string }[] = [];
  if (application) {
    rows.push({ label: t('myData.held.application'), value: joinKnown(t('myData.held.applicationValue', { date: date(application.createdAt) }), country(application.country), language(application.language)) });
  }
  if (waitingList) {
    rows.push({ label: t('myData.held.waitingList'), value: joinKnown(t('myData.held.waitingListValue', { date: date(waitingList.joinedAt) }), language(waitingList.language)) });
  }
  if (registration) {
    const name = `${registration.firstName} ${registration.lastName}`;
    rows.push({ label: t('myData.held.registration'), value: joinKnown(t('myData.held.registrationValue', { name, date: date(registration.createdAt) }), country(registration.country)) });
  }
  if (held.heldRegistrations.length > 0) rows.push({ label: t('myData.held.heldRegistrations'), value: String(held.heldRegistrations.length) });
  rows.push({ label: t('myData.held.newsletter'), value: t(data.newsletter && !newsletterWithdrawn ? 'myData.held.newsletterYes' : 'myData.held.newsletterNo') });
  rows.push({ label: t('myData.held.consents'), value: String(held.consentRecords.length + (held.application ? 1 : 0) + (held.waitingList ? 1 : 0)) });
  rows.push({ label: t('myData.held.emails'), value: String(held.emails.length) });
  return (
    <section aria-labelledby="held-title" className="mt-8 max-w-prose">
      <h2 id="held-title" className="font-display text-2xl">{t('myData.held.title')}</h2>
      <dl className="mt-4 grid gap-x-8 gap-y-4 border-t border-line pt-6 sm:grid-cols-[auto_1fr]">
        {rows.map((row) => (
          <div key={row.label} className="contents">
            <dt className="eyebrow text-stone">{row.label}</dt>
            <dd className="break-words">{row.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-sm leading-relaxed text-stone">{t('myData.held.notHeld')}</p>
    </section>
  );
}

/** Download, newsletter, delete (with a confirmation); an open request's deadline. */
function Actions({ data, reference, confirming, newsletterWithdrawn }: { data: OwnData; reference: string; confirming: boolean; newsletterWithdrawn: boolean }) {
  // The question takes the focus when it appears, so a keyboard or screen-reader user is in it (issue 24 §2).
  const confirmation = useRef<HTMLElement>(null);
  useEffect(() => {
    if (confirming) confirmation.current?.focus();
  }, [confirming]);
  const t = useT();
  const intl = useIntl();
  const busy = useSubmitting();
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'long' });
  return (
    <div className="mt-10 max-w-prose space-y-8 border-t border-line pt-6">
      {data.openRequestDueAt && data.openRequestReceivedAt && (
        <p role="status" className="border-l-2 border-ink pl-4">{t('myData.openRequest', { received: date(data.openRequestReceivedAt), due: date(data.openRequestDueAt) })}</p>
      )}
      {data.document && (
        <Form method="post">
          <input type="hidden" name="reference" value={reference} />
          <p className="text-sm leading-relaxed text-stone">{t('myData.download.text')}</p>
          <button type="submit" name="intent" value="download" className="btn-primary mt-4" disabled={busy}>{t('myData.download.button')}</button>
        </Form>
      )}
      {data.newsletter && !newsletterWithdrawn && (
        <Form method="post">
          <input type="hidden" name="reference" value={reference} />
          <p className="text-sm leading-relaxed text-stone">{t('myData.newsletter.text')}</p>
          <button type="submit" name="intent" value="newsletter" className="btn-outline mt-4" disabled={busy}>{t('myData.newsletter.button')}</button>
        </Form>
      )}
      {data.document &&
        (confirming ? (
          <section ref={confirmation} tabIndex={-1} role="alertdialog" aria-labelledby="confirm-erase" aria-describedby="confirm-erase-text" className="border-2 border-ink p-6">
            <h2 id="confirm-erase" className="font-display text-2xl">{t(data.activeMember ? 'myData.erase.memberQuestion' : 'myData.erase.question')}</h2>
            <p id="confirm-erase-text" className="mt-3 leading-relaxed">{t(data.activeMember ? 'myData.erase.memberText' : 'myData.erase.confirmText')}</p>
            <Form method="post" className="mt-6 flex flex-col gap-4 sm:flex-row sm:flex-wrap">
              <input type="hidden" name="reference" value={reference} />
              <input type="hidden" name="confirmed" value="yes" />
              <button type="submit" name="intent" value="erase" className="btn-primary" disabled={busy}>{t(data.activeMember ? 'myData.erase.memberConfirm' : 'myData.erase.confirm')}</button>
              <a href={`?ref=${reference}`} className="btn-outline">{t('myData.erase.cancel')}</a>
            </Form>
          </section>
        ) : (
          <Form method="post">
            <input type="hidden" name="reference" value={reference} />
            <p className="text-sm leading-relaxed text-stone">{t('myData.erase.text')}</p>
            <button type="submit" name="intent" value="confirm-erase" className="btn-outline mt-4" disabled={busy}>{t('myData.erase.button')}</button>
          </Form>
        ))}
      <p className="text-sm text-stone">{data.linkExpiresAt && t('myData.linkExpires', { date: date(data.linkExpiresAt) })}</p>
    </div>
  );
}

/** The export as a file: a data: link that works without JavaScript; with JavaScript it starts by itself once. */
function Download({ fileName, document }: { fileName: string; document: string }) {
  const t = useT();
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    link.current?.click();
  }, []);
  return (
    <section role="status" aria-labelledby="export-ready" className="mt-8 max-w-prose border-2 border-ink p-6">
      <h2 id="export-ready" className="font-display text-2xl">{t('myData.download.ready')}</h2>
      <a ref={link} href={`data:application/json;charset=utf-8,${encodeURIComponent(document)}`} download={fileName} className="btn-primary mt-6">
        {t('myData.download.file', { fileName })}
      </a>
    </section>
  );
}
