import { memberLookupForm } from '@velvet/validation/admin-members';
import { useIntl } from 'react-intl';
import { Form } from 'react-router';
import type { Route } from './+types/admin-members';
import { AddressForm } from '../components/address-form.tsx';
import { AdminBar } from '../components/admin-bar.tsx';
import { AdminTable } from '../components/admin-table.tsx';
import type { Notice } from '../components/code-form.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { requireAdmin } from '../lib/admin/admin.server.ts';
import { callApi } from '../lib/api/api.server.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { memberFreePlace, memberLookup, memberResendActivation } from '../lib/admin/admin-members-operations.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { useT } from '../lib/page/use-root.ts';

/**
 * Customer service's member look-up (issue 13, ADR 048): one address, exact, posted (never in
 * the URL); its registration, activation links, consents, waiting-list entry, application and
 * emails; resend the activation; free a pending place after a confirmation. Permission
 * members.support (owner, support, privacy): the API refuses everyone else, the page says so.
 */
export async function loader(args: Route.LoaderArgs) {
  const { email, session } = await requireAdmin(args);
  return { email, permissions: session.permissions, allowed: session.permissions.includes('members.support') };
}

type Outcome = { tone: 'done' | 'refused'; notice: Notice } | null;

export async function action(args: Route.ActionArgs) {
  const { token } = await requireAdmin(args);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  const submission = parseWithZod(formData, { schema: memberLookupForm });
  if (submission.status !== 'success') return { result: submission.reply(), record: null, nothingFound: false, outcome: null, confirmFree: false };
  const address = submission.value.email;
  const call = { ...args, token };
  const memberId = String(formData.get('memberId') ?? '').slice(0, 64);
  let outcome: Outcome = null;
  let confirmFree = false;
  if (intent === 'resend' || (intent === 'free' && formData.get('confirmed') === 'yes')) {
    const changed = intent === 'resend' ? await callApi(memberResendActivation, { memberId }, call) : await callApi(memberFreePlace, { memberId }, call);
    if (!changed.ok) outcome = { tone: 'refused', notice: apiFailureMessage(changed.error) };
    else {
      const payload = 'memberResendActivation' in changed.data ? changed.data.memberResendActivation : changed.data.memberFreePlace;
      outcome = payload.done
        ? { tone: 'done', notice: { id: intent === 'resend' ? 'admin.members.resent' : 'admin.members.freed' } }
        : { tone: 'refused', notice: { id: payload.userErrors[0]?.messageId ?? 'error.generic' } };
    }
  } else if (intent === 'free') {
    // Destructive: the first post asks, the confirmed second one frees the place.
    confirmFree = true;
  }
  const found = await callApi(memberLookup, { email: address }, call);
  if (!found.ok) return { result: submission.reply(), record: null, nothingFound: false, outcome: { tone: 'refused' as const, notice: apiFailureMessage(found.error) }, confirmFree: false };
  const { record, userErrors } = found.data.memberLookup;
  if (userErrors.length > 0) {
    return { result: submission.reply({ fieldErrors: { email: userErrors.map((e) => e.messageId) } }), record: null, nothingFound: false, outcome, confirmFree: false };
  }
  return { result: submission.reply(), record, nothingFound: record === null, outcome, confirmFree: confirmFree && record?.registration?.id === memberId };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'admin.members.metaTitle', noIndex: true });

type MemberRecord = NonNullable<NonNullable<Route.ComponentProps['actionData']>['record']>;

export default function AdminMembers({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div>
      <AdminBar email={loaderData.email} permissions={loaderData.permissions} />
      <PageIntro inverse title={t('admin.members.title')} />
      {loaderData.allowed ? (
        <>
          <p className="mt-4 max-w-2xl text-paper/80">{t('admin.members.text')}</p>
          <AddressForm id="member-lookup" lastResult={actionData?.result} buttons={[{ intent: 'lookup', label: 'admin.members.search' }]} />
          {actionData?.outcome && (
            <p role={actionData.outcome.tone === 'done' ? 'status' : 'alert'} className="mt-8 border-l-2 border-paper pl-4">
              {t(actionData.outcome.notice.id, actionData.outcome.notice.values)}
            </p>
          )}
          {actionData?.nothingFound && <p role="status" className="mt-8 border-l-2 border-paper pl-4">{t('admin.members.nothingFound')}</p>}
          {actionData?.record && <Record record={actionData.record} confirmFree={actionData.confirmFree} />}
        </>
      ) : (
        <p role="alert" className="mt-8 border-l-2 border-paper pl-4">{t('admin.forbidden')}</p>
      )}
    </div>
  );
}

function useDate() {
  const intl = useIntl();
  return (value: string | null | undefined) => (value ? intl.formatDate(value, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="font-display text-2xl text-paper">{title}</h2>
      <div className="mt-4 text-paper">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="grid gap-x-8 gap-y-3 sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="eyebrow text-paper/70">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Table({ label, head, rows }: { label: string; head: string[]; rows: React.ReactNode[][] }) {
  const t = useT();
  if (rows.length === 0) return <p>{t('admin.members.none')}</p>;
  return (
    <AdminTable
      caption={label}
      minWidth="min-w-[36rem]"
      rows={rows}
      rowKey={(_, i) => i}
      columns={head.map((header, j) => ({ header, cell: (cells: React.ReactNode[]) => cells[j] }))}
    />
  );
}

function Record({ record, confirmFree }: { record: MemberRecord; confirmFree: boolean }) {
  const t = useT();
  const date = useDate();
  const busy = useSubmitting();
  const r = record.registration;
  const yesNo = (value: boolean) => t(value ? 'admin.members.yes' : 'admin.members.no');
  const place = r ? (r.holdsPlace ? (r.placeHeldUntil ? t('admin.members.placeHeldUntil', { date: date(r.placeHeldUntil) }) : t('admin.members.placeHeld')) : t('admin.members.placeFree')) : '';
  const hidden = (
    <>
      <input type="hidden" name="email" value={record.email} />
      <input type="hidden" name="memberId" value={r?.id ?? ''} />
    </>
  );
  return (
    <div data-testid="member-record">
      <section aria-labelledby="record-title" className="mt-10 border-t border-paper/20 pt-8 text-paper">
        <h2 id="record-title" className="font-display text-3xl break-all">{record.email}</h2>
        <p className="mt-3 text-sm text-paper/80">
          {t('admin.members.reference')} <code data-testid="member-reference" className="font-mono">{record.reference}</code>
        </p>
        <CopyButton value={record.reference} label="admin.members.copyReference" />
      </section>
      <Section id="registration-title" title={t('admin.members.registration')}>
        {r ? (
          <>
            <Facts
              rows={[
                [t('admin.members.status'), <span data-testid="member-status">{t(`admin.members.status.${r.status}`)}</span>],
                [t('admin.members.name'), `${r.firstName} ${r.lastName}`.trim() || '—'],
                [t('admin.members.registeredAt'), date(r.createdAt)],
                [t('admin.members.activatedAt'), date(r.activatedAt)],
                [t('admin.members.code'), r.code ? <code className="font-mono">{r.code}</code> : '—'],
                ...(r.status === 'pending' ? ([[t('admin.members.place'), <span data-testid="member-place">{place}</span>]] as [string, React.ReactNode][]) : []),
                [t('admin.members.newsletter'), yesNo(r.newsletter)],
              ]}
            />
            {r.status === 'pending' && (
              <div className="mt-6 flex flex-wrap gap-4">
                <Form method="post">
                  {hidden}
                  <button type="submit" name="intent" value="resend" className="btn-inverse" disabled={busy}>{t('admin.members.resend')}</button>
                </Form>
                {r.holdsPlace && (
                  <Form method="post">
                    {hidden}
                    <button type="submit" name="intent" value="free" className="btn-inverse" disabled={busy}>{t('admin.members.free')}</button>
                  </Form>
                )}
              </div>
            )}
            {confirmFree && (
              <section role="alertdialog" aria-labelledby="confirm-free" aria-describedby="confirm-free-text" className="mt-8 bg-paper p-8 text-ink">
                <h3 id="confirm-free" className="font-display text-2xl">{t('admin.members.freeQuestion', { email: record.email })}</h3>
                <p id="confirm-free-text" className="mt-3">{t('admin.members.freeText')}</p>
                <Form method="post" className="mt-6 flex flex-wrap gap-4">
                  {hidden}
                  <input type="hidden" name="confirmed" value="yes" />
                  <button type="submit" name="intent" value="free" className="btn-primary" disabled={busy}>{t('admin.members.freeConfirm')}</button>
                  <button type="submit" name="intent" value="lookup" className="btn-outline" disabled={busy}>{t('admin.members.cancel')}</button>
                </Form>
              </section>
            )}
            <h3 className="eyebrow mt-8 text-paper/70">{t('admin.members.links')}</h3>
            <div className="mt-3">
              <Table
                label={t('admin.members.links')}
                head={[t('admin.members.linkReason'), t('admin.members.sentAt'), t('admin.members.expiresAt'), t('admin.members.status')]}
                rows={r.activationLinks.map((l) => [t(`admin.members.linkReason.${l.reason}`), date(l.createdAt), date(l.expiresAt), t(`admin.members.linkState.${l.state}`)])}
              />
            </div>
          </>
        ) : (
          <p>{t('admin.members.noRegistration')}</p>
        )}
      </Section>
      <Section id="consents-title" title={t('admin.members.consents')}>
        <Table
          label={t('admin.members.consents')}
          head={[t('admin.members.acceptedAt'), t('admin.members.country'), t('admin.members.terms'), t('admin.members.dataPolicy'), t('admin.members.newsletter')]}
          rows={[
            ...(r?.consents ?? []).map((c) => [date(c.acceptedAt), c.country, <code className="font-mono">{c.termsVersion}</code>, <code className="font-mono">{c.dataPolicyVersion}</code>, yesNo(c.newsletter)]),
            ...(record.waitlist ? [[date(record.waitlist.consentAt), '—', t('admin.members.waitlist'), '—', '—']] : []),
            ...(record.application ? [[date(record.application.consentAt), '—', t('admin.members.application'), '—', '—']] : []),
          ]}
        />
      </Section>
      <Section id="other-title" title={t('admin.members.elsewhere')}>
        <Facts
          rows={[
            [t('admin.members.waitlist'), record.waitlist ? t('admin.members.joined', { date: date(record.waitlist.joinedAt), invited: date(record.waitlist.invitedAt) }) : t('admin.members.none')],
            [t('admin.members.application'), record.application ? t('admin.members.applied', { date: date(record.application.createdAt), selected: date(record.application.selectedAt) }) : t('admin.members.none')],
            [t('admin.members.heldRegistrations'), record.heldRegistrations.length ? record.heldRegistrations.map((h) => `${h.code} (${date(h.createdAt)})`).join(', ') : t('admin.members.none')],
          ]}
        />
      </Section>
      <Section id="emails-title" title={t('admin.members.emails')}>
        <Table
          label={t('admin.members.emails')}
          head={[t('admin.members.template'), t('admin.members.queuedAt'), t('admin.members.status'), t('admin.members.attempts'), t('admin.members.sentAt')]}
          rows={record.emails.map((e) => [<code className="font-mono">{e.template}</code>, date(e.createdAt), t(`admin.members.emailStatus.${e.status}`), String(e.attempts), date(e.sentAt)])}
        />
      </Section>
    </div>
  );
}
