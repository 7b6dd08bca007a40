import { useEffect } from 'react';
import { data, Form, redirect, useSearchParams } from 'react-router';
import type { Route } from './+types/deny';
import { MessageScreen } from '../components/message-screen.tsx';
import { refusalForReason, refusalMessage } from '@velvet/validation/registration-code';
import { DENIED_INVITATION_KEY } from '../lib/analytics/analytics.ts';
import { freshDenial } from '../lib/registration/arrival.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { callApi } from '../lib/api/api.server.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { requestLobbyLink } from '../lib/api/operations.ts';
import { readFlow } from '../lib/session.server.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../lib/forms/form-guard.server.ts';
import { apiFailureMessage, checkCode } from '../lib/registration/registration-code.server.ts';
import { INVITATION_PARAMS } from '@velvet/validation/links';
import { FormGuard } from '../components/form-guard.tsx';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/**
 * A waiting-list place is offered when this visit already told us an email address. A refusal
 * for the referrer that the server just made (its proof in the flow cookie, arrival.server.ts)
 * is handed to the page once, and the proof is spent: a deny address typed by hand, or a
 * reload, keeps nothing aside and tracks nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { flow, save } = await readFlow(request, context);
  const body = { canJoinWaitlist: Boolean(flow.registrationEmail), denial: freshDenial(flow), inviterName: await noBalanceInviter(request, context) };
  if (!flow.denial) return data(body);
  const { denial: _spent, ...rest } = flow;
  return data(body, { headers: { 'Set-Cookie': await save(rest) } });
}

/**
 * For a code without invitations left, the inviter's first name, as the landing page said it
 * ("Julia has no invitations left", issue 20 §3): the code is asked for again, so the page
 * names whoever the code names now, and nothing when the check cannot be made.
 */
async function noBalanceInviter(request: Request, context: Route.LoaderArgs['context']): Promise<string | null> {
  const url = new URL(request.url);
  const code = url.searchParams.get(INVITATION_PARAMS.code);
  if (url.searchParams.get('reason') !== 'no-balance' || !code) return null;
  const check = await checkCode({ code }, { request, context });
  return check.status === 'unavailable' ? null : check.inviterName;
}

/**
 * Emails the lobby link to the address this visit typed: the address merely passed through
 * the flow cookie (any form can put one there), so the lobby — and the waiting list — is
 * opened only by whoever reads that inbox (ADR 029).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { flow } = await readFlow(request, context);
  const { locale, prefix } = context.get(localeContext);
  if (!flow.registrationEmail) throw redirect(localizedPath(prefix, '/membership-interest/apply'));
  const formData = await request.formData();
  // A script: "we have sent a link", as a person would read, and no email (ADR 041).
  if (isScriptedSubmission(formData, context)) return { sentTo: flow.registrationEmail, notice: null };
  const email = flow.registrationEmail;
  const result = await callApi(requestLobbyLink, { email, language: locale, proofOfWork: proofOfWorkOf(formData) }, { request, context });
  if (!result.ok) return { sentTo: null, notice: apiFailureMessage(result.error) };
  const { sent, userErrors } = result.data.requestLobbyLink;
  // An address that cannot receive mail (ADR 042) is said as such; anything else is a technical issue.
  if (!sent) return { sentTo: null, notice: { id: userErrors[0]?.messageId ?? 'error.generic' } };
  return { sentTo: flow.registrationEmail, notice: null };
}

/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { sentTo: null, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.deny.title', noIndex: true });

type Message = { id: string; values?: Record<string, string> };

/**
 * What the page says under "Access denied" (UX review of 27 Nov, row 9): what happened in this
 * visitor's situation — a waiting-list link (`token`), a social sign-up that lost its proof
 * (`sign-in`), an invitation shared on a public site (`referrer`), or the invitation's own
 * refusal — and, in a second line, what to do next. The spec's "Access denied. Your invitation
 * is invalid." reads as the title and its lead, never as the title said twice.
 */
function denySituation(reason: string | null, refusal: Message): { lead: Message; nextId: string } {
  if (reason === 'token') return { lead: { id: 'deny.lead.token' }, nextId: 'deny.next.token' };
  if (reason === 'sign-in') return { lead: { id: 'deny.lead.signIn' }, nextId: 'deny.next.signIn' };
  if (reason === 'referrer') return { lead: { id: 'deny.lead.referrer' }, nextId: 'deny.next.referrer' };
  return { lead: refusal.id === 'deny.invalid' ? { id: 'deny.lead.invalid' } : refusal, nextId: 'deny.alternatives' };
}

/** Access denied: what happened, and what the visitor can do instead. */
export default function Deny({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  const [params] = useSearchParams();
  const reason = params.get('reason');
  const { denial } = loaderData;
  useEffect(() => {
    if (!denial) return;
    // The arrival rule (spec §4): the invitation and the full referrer are kept aside.
    try {
      window.localStorage.setItem(DENIED_INVITATION_KEY, JSON.stringify({ registrationCode: denial.registrationCode, referrer: denial.referrer, at: new Date().toISOString() }));
    } catch {
      // Storage can be unavailable (private mode); the page works without it.
    }
  }, [denial]);
  useTrackOnce(denial ? { event: 'landing_forbidden_referrer', referrerHost: URL.parse(denial.referrer)?.host ?? '' } : null);
  // The refusal's event of spec §8, as the landing page would track it for a typed code.
  const refusal = refusalForReason(reason);
  useTrackOnce(refusal.event ? { event: refusal.event } : null);
  const situation = denySituation(reason, refusalMessage(refusal, 'typed', loaderData.inviterName));
  const apply = { label: t('deny.applyCta'), to: path('/membership-interest/apply') };
  return (
    <MessageScreen
      inverse
      title={t('deny.title')}
      text={t(situation.lead.id, situation.lead.values)}
      actions={reason === 'token' ? [{ label: t('deny.newLinkCta'), to: `${path('/')}#waitlist` }, { ...apply, variant: 'outline' }] : [apply]}
    >
      <p className="mt-6 text-paper/80">{t(situation.nextId)}</p>
      {actionData?.sentTo ? (
        <p role="status" className="mt-6">{t('deny.waitlistSent', { email: actionData.sentTo })}</p>
      ) : (
        loaderData.canJoinWaitlist && (
          <Form method="post" className="mt-6">
            {actionData?.notice && <p role="alert" className="mb-4 border-l-2 border-alert pl-4">{t(actionData.notice.id, actionData.notice.values)}</p>}
            <FormGuard proofOfWork={{ form: 'WAITING_LIST' }} />
            <button type="submit" className="link text-paper">{t('deny.waitlistCta')}</button>
          </Form>
        )
      )}
    </MessageScreen>
  );
}
