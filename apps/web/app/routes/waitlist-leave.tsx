import { Form } from 'react-router';
import type { Route } from './+types/waitlist-leave';
import { MessageScreen } from '../components/message-screen.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { leaveWaitlist } from '../lib/api/operations.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** The reference the confirmation email's link carries (ADR 058): 128 random bits, base64url. */
const REFERENCE = /^[A-Za-z0-9_-]{22}$/;

/**
 * The "leave the waiting list" link of the confirmation email (issue 22 §2, ADR 058). Opening it
 * (GET) changes nothing — mail scanners open links too (ADR 040) — the page asks, and the button
 * posts. A reference of the wrong shape is known to be unusable at once.
 */
export function loader({ request }: Route.LoaderArgs) {
  const reference = new URL(request.url).searchParams.get('ref') ?? '';
  return { reference: REFERENCE.test(reference) ? reference : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const reference = String((await request.formData()).get('reference') ?? '');
  if (!REFERENCE.test(reference)) return { outcome: 'NOT_FOUND' as const, notice: null };
  const result = await callApi(leaveWaitlist, { reference }, { request, context });
  if (!result.ok) return { outcome: null, notice: apiFailureMessage(result.error) };
  return { outcome: result.data.leaveWaitlist.outcome, notice: null };
}

/** The visitor's connection lost the form on its way: the page stays and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { outcome: null, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.waitlistLeave.title', noIndex: true });

export default function WaitlistLeave({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  const busy = useSubmitting();
  const home = [{ label: t('nav.backToStart'), to: path('/'), variant: 'outline' as const }];
  if (actionData?.outcome === 'LEFT') {
    return <MessageScreen title={t('waitlistLeave.left.title')} text={t('waitlistLeave.left.text')} actions={home} />;
  }
  if (!loaderData.reference || actionData?.outcome === 'NOT_FOUND') {
    return <MessageScreen title={t('waitlistLeave.unknown.title')} text={t('waitlistLeave.unknown.text')} actions={home} />;
  }
  return (
    <MessageScreen title={t('waitlistLeave.title')} text={t('waitlistLeave.text')}>
      {actionData?.notice && <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(actionData.notice.id, actionData.notice.values)}</p>}
      <Form method="post" className="mt-10">
        <input type="hidden" name="reference" value={loaderData.reference} />
        <button type="submit" className="btn-primary" disabled={busy}>{t('waitlistLeave.button')}</button>
      </Form>
    </MessageScreen>
  );
}
