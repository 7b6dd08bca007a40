import { memberLookupForm } from '@velvet/validation/admin-members';
import { useEffect, useRef } from 'react';
import { Form } from 'react-router';
import type { Route } from './+types/admin-privacy';
import { AddressForm } from '../components/address-form.tsx';
import { AdminBar } from '../components/admin-bar.tsx';
import type { Notice } from '../components/code-form.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { markPrivacyRequestDone, memberLookup, personalDataErase, personalDataExport, privacyRequests } from '../lib/admin/admin-members-operations.ts';
import { PrivacyRequests } from '../components/privacy-requests.tsx';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { useT } from '../lib/page/use-root.ts';

/**
 * The data-protection page (issue 13, ADR 048): export everything held about an address as a JSON
 * file, or delete it after a confirmation — what law keeps is kept and said so. Permission
 * privacy.manage (owner, privacy). The address is posted, never in the URL.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, session, token } = await requireAdmin(args);
  const allowed = session.permissions.includes('privacy.manage');
  // The requests that need a person, with their legal deadline (issue 24 §2, ADR 066).
  const requests = allowed ? await callApi(privacyRequests, {}, { ...args, token }) : null;
  return { email, permissions: session.permissions, allowed, requests: requests?.ok ? requests.data.privacyRequests : [], now: Date.now() };
}

const REMOVED_KINDS = ['registrations', 'heldRegistrations', 'waitingList', 'applications', 'consentRecords', 'activationLinks', 'emails'] as const;

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  if (intent === 'request-done') {
    const done = await callApi(markPrivacyRequestDone, { id: String(formData.get('requestId') ?? '') }, { ...args, token });
    return { result: undefined, download: null, erasure: null, confirmErase: null, notice: done.ok ? null : apiFailureMessage(done.error) };
  }
  const submission = parseWithZod(formData, { schema: memberLookupForm });
  const none = { download: null, erasure: null, confirmErase: null, notice: null as Notice | null };
  if (submission.status !== 'success') return { ...none, result: submission.reply() };
  const address = submission.value.email;
  const call = { ...args, token };
  const refusal = (userErrors: readonly { messageId: string; field: string | null }[]) =>
    userErrors[0]?.field === 'email' && userErrors[0].messageId.startsWith('validation.')
      ? { ...none, result: submission.reply({ fieldErrors: { email: userErrors.map((e) => e.messageId) } }) }
      : { ...none, result: submission.reply(), notice: { id: userErrors[0]?.messageId ?? 'error.generic' } };
  if (intent === 'export') {
    const exported = await callApi(personalDataExport, { email: address }, call);
    if (!exported.ok) return { ...none, result: submission.reply(), notice: apiFailureMessage(exported.error) };
    const { fileName, document, userErrors } = exported.data.personalDataExport;
    if (!fileName || !document) return refusal(userErrors);
    return { ...none, result: submission.reply(), download: { email: address, fileName, document } };
  }
  if (intent === 'erase' && formData.get('confirmed') === 'yes') {
    const erased = await callApi(personalDataErase, { email: address }, call);
    if (!erased.ok) return { ...none, result: submission.reply(), notice: apiFailureMessage(erased.error) };
    const { erasure, userErrors } = erased.data.personalDataErase;
    if (!erasure) return refusal(userErrors);
    const removed = JSON.parse(erasure.removed) as Record<string, number>;
    return {
      ...none,
      result: submission.reply({ resetForm: true }),
      erasure: { ...erasure, removed: REMOVED_KINDS.map((kind) => ({ kind, count: Number(removed[kind] ?? 0) })) },
    };
  }
  // Destructive: the first post asks, showing what would go; the confirmed second one deletes.
  const found = await callApi(memberLookup, { email: address }, call);
  if (!found.ok) return { ...none, result: submission.reply(), notice: apiFailureMessage(found.error) };
  const { record, userErrors } = found.data.memberLookup;
  if (userErrors.length > 0) return refusal(userErrors);
  if (!record) return { ...none, result: submission.reply(), notice: { id: 'admin.members.nothingFound' } };
  const held: Record<(typeof REMOVED_KINDS)[number], number> = {
    registrations: record.registration ? 1 : 0,
    heldRegistrations: record.heldRegistrations.length,
    waitingList: record.waitlist ? 1 : 0,
    applications: record.application ? 1 : 0,
    consentRecords: record.registration?.consents.length ?? 0,
    activationLinks: record.registration?.activationLinks.length ?? 0,
    emails: record.emails.length,
  };
  return { ...none, result: submission.reply(), confirmErase: { email: address, held: REMOVED_KINDS.map((kind) => ({ kind, count: held[kind] })) } };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'admin.privacy.metaTitle', noIndex: true });

export default function AdminPrivacy({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.privacy.title')} />
      {loaderData.allowed ? (
        <>
          <p className="mt-4 max-w-2xl text-paper/80">{t('admin.privacy.text')}</p>
          <AddressForm
            id="privacy-address"
            lastResult={actionData?.result}
            buttons={[
              { intent: 'export', label: 'admin.privacy.export' },
              { intent: 'erase', label: 'admin.privacy.erase', primary: false },
            ]}
          />
          {actionData?.notice && <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t(actionData.notice.id, actionData.notice.values)}</p>}
          {actionData?.download && <Download key={actionData.download.fileName} {...actionData.download} />}
          {actionData?.confirmErase && (
            <section role="alertdialog" aria-labelledby="confirm-erase" aria-describedby="confirm-erase-text" className="mt-10 bg-paper p-8 text-ink">
              <h2 id="confirm-erase" className="font-display text-2xl break-words">{t('admin.privacy.eraseQuestion', { email: actionData.confirmErase.email })}</h2>
              <p id="confirm-erase-text" className="mt-3">{t('admin.privacy.eraseText')}</p>
              <Counts rows={actionData.confirmErase.held} />
              <Form method="post" className="mt-6 flex flex-wrap gap-4">
                <input type="hidden" name="email" value={actionData.confirmErase.email} />
                <input type="hidden" name="confirmed" value="yes" />
                <button type="submit" name="intent" value="erase" className="btn-primary" disabled={busy}>{t('admin.privacy.eraseConfirm')}</button>
                <a href="?" className="btn-outline">{t('admin.members.cancel')}</a>
              </Form>
            </section>
          )}
          {actionData?.erasure && (
            <section role="status" aria-labelledby="erased-title" className="mt-10 bg-paper p-8 text-ink">
              <h2 id="erased-title" className="font-display text-2xl">{t('admin.privacy.erased')}</h2>
              <Counts rows={actionData.erasure.removed} />
              <p className="mt-4">{t('admin.privacy.keptCount', { count: actionData.erasure.keptConsentProofs })}</p>
              {actionData.erasure.anonymisedInviter && <p className="mt-3">{t('admin.privacy.anonymisedInviter')}</p>}
              <p className="mt-3 text-sm">
                {t('admin.members.reference')} <code className="font-mono">{actionData.erasure.reference}</code>
              </p>
              <CopyButton value={actionData.erasure.reference} label="admin.members.copyReference" className="btn-primary" />
            </section>
          )}
          <PrivacyRequests requests={loaderData.requests} now={loaderData.now} />
          <section aria-labelledby="kept-title" className="mt-12 max-w-3xl text-paper">
            <h2 id="kept-title" className="font-display text-2xl">{t('admin.privacy.keptTitle')}</h2>
            <p className="mt-3 text-paper/80">{t('admin.privacy.keptText')}</p>
          </section>
        </>
      ) : (
        <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t('admin.forbidden')}</p>
      )}
    </div>
  );
}

/** How many records of each kind: held (before a deletion) or deleted. */
function Counts({ rows }: { rows: { kind: string; count: number }[] }) {
  const t = useT();
  return (
    <dl className="mt-4 grid gap-x-8 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map(({ kind, count }) => (
        <div key={kind} className="contents">
          <dt className="eyebrow text-stone">{t(`admin.privacy.kind.${kind}`)}</dt>
          <dd>{count}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The export as a file: a link that works without JavaScript (a data: URL with `download`), and
 * with JavaScript the download starts by itself once.
 */
function Download({ email, fileName, document }: { email: string; fileName: string; document: string }) {
  const t = useT();
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    link.current?.click();
  }, []);
  return (
    <section role="status" aria-labelledby="export-ready" className="mt-10 bg-paper p-8 text-ink">
      <h2 id="export-ready" className="font-display text-2xl break-words">{t('admin.privacy.exportReady', { email })}</h2>
      <a ref={link} href={`data:application/json;charset=utf-8,${encodeURIComponent(document)}`} download={fileName} className="btn-primary mt-6">
        {t('admin.privacy.download', { fileName })}
      </a>
    </section>
  );
}
