import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/form-finished';
import { BackToApp } from '../components/back-to-app.tsx';
import { MessageScreen } from '../components/message-screen.tsx';
import { useWebView } from '../lib/use-web-view.ts';
import { callApi } from '../lib/api.server.ts';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { watchRegistrationStatus } from '../lib/live-status.ts';
import { pageMeta } from '../lib/meta.ts';
import { getRegistrationStatus } from '../lib/operations.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { readFlow } from '../lib/session.server.ts';
import { useTrackStep } from '../lib/use-track.ts';
import { useRootData, useT } from '../lib/use-root.ts';

/** How often the page asks again when websockets are blocked. */
const POLL_MS = 5000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { flow } = await readFlow(request, context);
  const registrationId = flow.registrationId ?? null;
  let state: 'PENDING' | 'ACTIVE' = 'PENDING';
  if (registrationId) {
    const result = await callApi(getRegistrationStatus, { registrationId }, { request, context });
    if (result.ok && result.data.registrationStatus?.state === 'ACTIVE') state = 'ACTIVE';
  }
  return { email: flow.registrationEmail ?? null, registrationId, state, flow: flow.registrationFlow ?? 'default' };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.formFinished.title', noIndex: true });

/** Verify-email page: it notices by itself when the account is activated elsewhere. */
export default function FormFinished({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { runtime } = useRootData();
  const webView = useWebView();
  const { revalidate } = useRevalidator();
  const [liveState, setLiveState] = useState<'PENDING' | 'ACTIVE'>(loaderData.state);
  const [polling, setPolling] = useState(false);
  const state = loaderData.state === 'ACTIVE' ? 'ACTIVE' : liveState;
  const { registrationId } = loaderData;
  // Counted by the form when it was submitted in this page load; else here.
  useTrackStep(
    loaderData.flow === 'default'
      ? { event: 'email_submitted', flow: 'default', ...(loaderData.email ? { emailHash: loaderData.email } : {}) }
      : { event: 'step2_submitted' },
  );

  useEffect(() => {
    if (!registrationId || state === 'ACTIVE') return;
    const graphqlUrl = runtimeConfig()?.acqBackendGraphqlURL ?? runtime.acqBackendGraphqlURL;
    return watchRegistrationStatus(graphqlUrl, registrationId, (status) => setLiveState(status.state), () => setPolling(true));
  }, [registrationId, state, runtime.acqBackendGraphqlURL]);

  useEffect(() => {
    if (!polling || state === 'ACTIVE') return;
    const timer = setInterval(() => void revalidate(), POLL_MS);
    return () => clearInterval(timer);
  }, [polling, state, revalidate]);

  if (state === 'ACTIVE') {
    return (
      <MessageScreen
        title={t('formFinished.activated')}
        actions={webView.active ? [] : [{ label: t('activation.shopNow'), to: EXTERNAL_LINKS.login, external: true }]}
      >
        <BackToApp />
      </MessageScreen>
    );
  }
  return (
    <MessageScreen title={t('formFinished.title')} text={t('formFinished.text')}>
      {loaderData.email && <p className="mt-6 text-lg">{t('formFinished.email', { email: loaderData.email })}</p>}
      {registrationId && (
        <p className="mt-10 border-t border-line pt-6 text-sm text-stone" role="status" aria-live="polite">
          {t('formFinished.live')}
        </p>
      )}
      <BackToApp />
    </MessageScreen>
  );
}
