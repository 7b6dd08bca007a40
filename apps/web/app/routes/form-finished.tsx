import { useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/form-finished';
import { BackToApp } from '../components/back-to-app.tsx';
import { MessageScreen } from '../components/message-screen.tsx';
import { useWebView } from '../lib/use-web-view.ts';
import { callApi } from '../lib/api.server.ts';
import { isRegistrationFlow } from '@velvet/validation/registration';
import { shopLink } from '../lib/landing-variants.ts';
import { watchRegistrationStatus } from '../lib/live-status.ts';
import { pageMeta } from '../lib/meta.ts';
import { getRegistrationStatus, type RegistrationStatus } from '../lib/operations.ts';
import { whenRuntimeConfig } from '../lib/runtime-config.ts';
import { requireOutcome } from '../lib/registration.server.ts';
import { socketToken } from '../lib/auth-cookie.server.ts';
import { useTrackStep } from '../lib/use-track.ts';
import { useT } from '../lib/use-root.ts';

/** How often the page asks again when websockets are blocked. */
const POLL_MS = 5000;

export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const flow = await requireOutcome(args, 'FORM_FINISHED');
  const memberId = flow.memberId ?? null;
  let state: RegistrationStatus['state'] = 'PENDING';
  if (memberId) {
    const result = await callApi(getRegistrationStatus, { memberId }, { request, context });
    if (result.ok && result.data.registrationStatus?.state === 'ACTIVE') state = 'ACTIVE';
  }
  return {
    email: flow.registrationEmail ?? null,
    memberId,
    state,
    flow: isRegistrationFlow(flow.registrationFlow) ? flow.registrationFlow : 'default',
    sourcePath: flow.sourcePath ?? null,
    // The websocket's Bearer token (spec §7.5), only while it is still needed (ADR 022).
    socketToken: memberId && state === 'PENDING' ? await socketToken(request, context) : null,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.formFinished.title', noIndex: true });

/** Verify-email page: it notices by itself when the account is activated elsewhere. */
export default function FormFinished({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const webView = useWebView();
  const { revalidate } = useRevalidator();
  const [liveState, setLiveState] = useState<RegistrationStatus['state']>(loaderData.state);
  const [polling, setPolling] = useState(false);
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
      () => setPolling(true),
    );
  }, [memberId, state]);

  useEffect(() => {
    if (!polling || state === 'ACTIVE') return;
    const timer = setInterval(() => void revalidate(), POLL_MS);
    return () => clearInterval(timer);
  }, [polling, state, revalidate]);

  if (state === 'ACTIVE') {
    return (
      <MessageScreen
        title={t('formFinished.activated')}
        actions={webView.active ? [] : [{ label: t('activation.shopNow'), to: shopLink(loaderData.sourcePath), external: true }]}
      >
        <BackToApp />
      </MessageScreen>
    );
  }
  return (
    <MessageScreen title={t('formFinished.title')} text={t('formFinished.text')}>
      {loaderData.email && <p className="mt-6 text-lg">{t('formFinished.email', { email: loaderData.email })}</p>}
      {memberId && (
        <p className="mt-10 border-t border-line pt-6 text-sm text-stone" role="status" aria-live="polite">
          {t('formFinished.live')}
        </p>
      )}
      <BackToApp />
    </MessageScreen>
  );
}
