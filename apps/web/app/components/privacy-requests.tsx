import { useIntl } from 'react-intl';
import { Form } from 'react-router';
import { useSubmitting } from '../lib/forms/forms.ts';
import { useT } from '../lib/page/use-root.ts';

export interface PrivacyRequestItem {
  id: string;
  email: string;
  kind: string;
  message: string | null;
  language: string;
  receivedAt: string;
  dueAt: string;
  doneAt: string | null;
}

const DAY_MS = 86_400_000;
/** Due within this many days: "due soon". */
const NEAR_DAYS = 7;

/** How close a request is to its legal deadline (one month after it came in, GDPR Art. 12(3)). */
export function deadlineState(request: Pick<PrivacyRequestItem, 'dueAt' | 'doneAt'>, now: number): 'done' | 'overdue' | 'near' | 'open' {
  if (request.doneAt) return 'done';
  const left = new Date(request.dueAt).getTime() - now;
  if (left < 0) return 'overdue';
  return left <= NEAR_DAYS * DAY_MS ? 'near' : 'open';
}

/**
 * The privacy requests that need a person (issue 24 §2, ADR 066): who, what, received when, due
 * when — overdue and due-soon ones set off — and a button that marks one done (audited).
 */
export function PrivacyRequests({ requests, now }: { requests: PrivacyRequestItem[]; now: number }) {
  const t = useT();
  const intl = useIntl();
  const busy = useSubmitting();
  const date = (iso: string) => intl.formatDate(iso, { dateStyle: 'medium' });
  return (
    <section aria-labelledby="requests-title" className="mt-12 text-paper">
      <h2 id="requests-title" className="font-display text-2xl">{t('admin.privacy.requests.title')}</h2>
      <p className="mt-3 max-w-2xl text-paper/80">{t('admin.privacy.requests.text')}</p>
      {requests.length === 0 ? (
        <p className="mt-6">{t('admin.privacy.requests.none')}</p>
      ) : (
        <ul className="mt-6 grid gap-4">
          {requests.map((request) => {
            const state = deadlineState(request, now);
            return (
              <li key={request.id} className={`bg-paper p-6 text-ink ${state === 'overdue' ? 'border-l-8 border-alert' : state === 'near' ? 'border-l-8 border-ink' : ''}`}>
                <p className="font-medium break-words">{request.email}</p>
                <p className="mt-1">{t(request.kind === 'erase-member' ? 'admin.privacy.requests.kindEraseMember' : 'admin.privacy.requests.kindOther')}</p>
                {request.message && <p className="mt-2 border-l-2 border-line pl-3 whitespace-pre-line break-words">{request.message}</p>}
                <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
                  <dt className="eyebrow text-stone">{t('admin.privacy.requests.received')}</dt>
                  <dd>{date(request.receivedAt)}</dd>
                  <dt className="eyebrow text-stone">{t('admin.privacy.requests.due')}</dt>
                  <dd>
                    {date(request.dueAt)}
                    {state === 'overdue' && <strong className="ml-2 text-alert">{t('admin.privacy.requests.overdue')}</strong>}
                    {state === 'near' && <strong className="ml-2">{t('admin.privacy.requests.near')}</strong>}
                  </dd>
                  {request.doneAt && (
                    <>
                      <dt className="eyebrow text-stone">{t('admin.privacy.requests.done')}</dt>
                      <dd>{date(request.doneAt)}</dd>
                    </>
                  )}
                </dl>
                {!request.doneAt && (
                  <Form method="post" className="mt-4">
                    <input type="hidden" name="requestId" value={request.id} />
                    <button type="submit" name="intent" value="request-done" className="btn-outline" disabled={busy}>{t('admin.privacy.requests.markDone')}</button>
                  </Form>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
