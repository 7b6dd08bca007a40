import { useEffect, useRef, useState } from 'react';
import { Form, useActionData, useRevalidator } from 'react-router';
import type { Route } from './+types/form-finished';
import { BackToApp } from '../components/back-to-app.tsx';
import { FormGuard } from '../components/form-guard.tsx';
import { useSubmitting } from '../lib/forms/forms.ts';
import { canSendAgain, resendRegistration } from '../lib/registration/resend.server.ts';
import { MessageScreen } from '../components/message-screen.tsx';
import { useWebView } from '../lib/web-view/use-web-view.ts';
import { callApi } from '../lib/api/api.server.ts';
import { isRegistrationFlow } from '@velvet/validation/registration';
import { shopLink } from '../lib/landing/landing-variants.ts';
import { watchRegistrationStatus } from '../lib/api/live-status.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { getRegistrationStatus, getViewerWelcomeVoucher, type RegistrationStatus, type WelcomeVoucher } from '../lib/api/operations.ts';
import { whenRuntimeConfig } from '../lib/page/runtime-config.ts';
import { requireOutcome } from '../lib/registration/registration.server.ts';
import { registrantToken, socketToken } from '../lib/auth-cookie.server.ts';
import { VoucherCard } from '../components/welcome.tsx';
import { useTrackStep } from '../lib/analytics/use-track.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** How often the page asks again while its websocket is not listening (blocked, reconnecting, given up). */
const POLL_MS = 5000;

export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const flow = await requireOutcome(args, 'FORM_FINISHED', 'PENDING_REVIEW');
  // Held for review on a quarantined code (ADR 043): nothing to watch, a way on instead.
  if (flow.registrationOutcome === 'PENDING_REVIEW') return { review: true as const, email: flow.registrationEmail ?? null };
  const memberId = flow.memberId ?? null;
  let state: RegistrationStatus['state'] = 'PENDING';
  let voucher: WelcomeVoucher | null = null;
  if (memberId) {
    const result = await callApi(getRegistrationStatus, { memberId }, { request, context });
    if (result.ok && result.data.registrationStatus?.state === 'ACTIVE') state = 'ACTIVE';
  }
  // Activated, here or on another device: the welcome voucher, as the welcome page and email show it (issue 22 row 8).
  if (memberId && state === 'ACTIVE') {
    const result = await callApi(getViewerWelcomeVoucher, {}, { request, context, token: await registrantToken(memberId, context) });
    if (result.ok) voucher = result.data.viewer?.welcomeVoucher ?? null;
  }
  return {
    review: false as const,
    email: flow.registrationEmail ?? null,
    memberId,
    state,
    voucher,
    flow: isRegistrationFlow(flow.registrationFlow) ? flow.registrationFlow : 'default',
    // "Send it again" (issue 20 §1): only with a whole registration kept to send; its proof of work is for this invitation.
    resend: canSendAgain(flow) ? { registrationCode: flow.registrationCode, validityTimestamp: flow.validityTimestamp ?? null } : null,
    sourcePath: flow.sourcePath ?? null,
    // The websocket's Bearer token (spec §7.5), only while it is still needed (ADR 022).
    socketToken: memberId && state === 'PENDING' ? await socketToken(request, context) : null,
  };
}

/** "Send it again": the registration the flow kept, sent to the API once more (lib/registration/resend.server.ts). */
export async function action(args: Route.ActionArgs) {
  await requireOutcome(args, 'FORM_FINISHED');
  return resendRegistration(args, await args.request.formData());
}


/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { resent: null, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.formFinished.title', noIndex: true });

type LoaderData = Route.ComponentProps['loaderData'];

export default function FormFinished({ loaderData }: Route.ComponentProps) {
  return loaderData.review ? <HeldForReview email={loaderData.email} /> : <AwaitingActivation loaderData={loaderData} />;
}

/**
 * A registration held on a quarantined code (ADR 043): no email is on its way, so the page says
 * the invitation is being checked and leads on to membership interest, the address filled in.
 */
function HeldForReview({ email }: { email: string | null }) {
  const t = useT();
  const path = useLocalPath();
  return (
    <MessageScreen
      title={t('formFinished.review.title')}
      text={t('formFinished.review.text')}
      actions={[
        { label: t('formFinished.review.apply'), to: path('/membership-interest/apply') },
        { label: t('error.tryAgain'), to: path('/'), variant: 'outline' },
      ]}
    >
      {email && <p className="mt-6 text-lg">{t('formFinished.review.email', { email })}</p>}
      <BackToApp />
    </MessageScreen>
  );
}

/** Verify-email page: it notices by itself when the account is activated elsewhere. */
function AwaitingActivation({ loaderData }: { loaderData: Extract<LoaderData, { review: false }> }) {
  const t = useT();
  const webView = useWebView();
  const { revalidate } = useRevalidator();
  const [liveState, setLiveState] = useState<RegistrationStatus['state']>(loaderData.state);
  // Whether the websocket is acknowledged and listening; until then, and whenever it is not, the page polls.
  const [live, setLive] = useState(false);
  const state = loaderData.state === 'ACTIVE' ? 'ACTIVE' : liveState;
  const { memberId } = loaderData;
  // The freshest token at each (re)connection, without reconnecting when a revalidation brings a new one.
  const token = useRef(loaderData.socketToken);
  useEffect(() => {
    token.current = loaderData.socketToken;
  }, [loaderData.socketToken]);
  // Counted by the form when it was submitted in this page load; else here.
  useTrackStep(
    loaderData.flow === 'default' || loaderData.flow === 'leanStep1'
      ? { event: 'email_submitted', flow: 'default', ...(loaderData.email ? { emailHash: loaderData.email } : {}) }
      : { event: 'step2_submitted', flow: loaderData.flow },
  );
  // The welcome page of spec §4: after the last form, before the activate-account page.
  useTrackStep({ event: 'welcome_landed' });

  useEffect(() => {
    if (!memberId || state === 'ACTIVE') return;
    // The socket waits for /acquisition-defaults.json: its acqBackendGraphqlURL wins (spec §7.1).
    const graphqlUrl = async () => (await whenRuntimeConfig()).acqBackendGraphqlURL;
    return watchRegistrationStatus(
      memberId,
      { graphqlUrl, token: () => token.current },
      (status) => setLiveState(status.state),
      setLive,
    );
  }, [memberId, state]);

  // The socket said ACTIVE: load the page once more, for the voucher.
  useEffect(() => {
    if (liveState === 'ACTIVE' && loaderData.state !== 'ACTIVE') void revalidate();
  }, [liveState, loaderData.state, revalidate]);

  useEffect(() => {
    if (live || !memberId || state === 'ACTIVE') return;
    const timer = setInterval(() => void revalidate(), POLL_MS);
    return () => clearInterval(timer);
  }, [live, memberId, state, revalidate]);

  if (state === 'ACTIVE') {
    return (
      <MessageScreen
        title={t('formFinished.activated')}
        actions={webView.active ? [] : [{ label: t('activation.shopNow'), to: shopLink(loaderData.sourcePath), external: true }]}
      >
        {loaderData.voucher && <VoucherCard voucher={loaderData.voucher} />}
        <BackToApp />
      </MessageScreen>
    );
  }
  return (
    <MessageScreen title={t('formFinished.title')} text={t('formFinished.text')}>
      {loaderData.email && <p className="mt-6 text-lg">{t('formFinished.email', { email: loaderData.email })}</p>}
      {memberId && (
        // Its updates need the page's script: without one, no promise (issue 20 §3; CSS's `scripting: none`).
        <p className="mt-10 border-t border-line pt-6 text-sm text-stone noscript:hidden" role="status" aria-live="polite">
          {t('formFinished.live')}
        </p>
      )}
      {loaderData.resend && <SendAgain proofOfWork={{ form: 'REGISTRATION', ...loaderData.resend }} email={loaderData.email} />}
      <BackToApp />
    </MessageScreen>
  );
}

/**
 * No email? One press sends the kept registration again as a real, checked request: the
 * activation email again, or — when a guard took the first send for a script's — the
 * registration itself (issue 20 §1). What came of it is said next to the button.
 */
function SendAgain({ proofOfWork, email }: { proofOfWork: { form: 'REGISTRATION'; registrationCode: string; validityTimestamp: string | null }; email: string | null }) {
  const t = useT();
  const busy = useSubmitting();
  const answer = useActionData<typeof action>();
  return (
    <Form method="post" className="mt-10 border-t border-line pt-6">
      <FormGuard proofOfWork={proofOfWork} />
      <p className="text-sm leading-relaxed text-stone">{t('formFinished.resend.prompt')}</p>
      <button type="submit" name="intent" value="resend" className="btn-outline mt-4" disabled={busy}>
        {t('formFinished.resend.action')}
      </button>
      {answer?.resent && (
        <p role="status" className="mt-4">
          {answer.resent === 'sent' ? t('formFinished.resend.sent', { email: email ?? '' }) : t('formFinished.resend.limit')}
        </p>
      )}
      {answer?.notice && (
        <p role="alert" className="mt-4 border-l-2 border-alert pl-4">
          {t(answer.notice.id, answer.notice.values)}
        </p>
      )}
    </Form>
  );
}
