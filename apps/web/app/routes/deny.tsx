import { signLobbyToken } from '@velvet/tokens/signed-token';
import { useEffect } from 'react';
import { Form, redirect, useSearchParams } from 'react-router';
import type { Route } from './+types/deny';
import { MessageScreen } from '../components/message-screen.tsx';
import { DENIED_INVITATION_KEY, track, type TrackedEvent } from '../lib/analytics.ts';
import { localeContext, requestInfoContext } from '../lib/context.ts';
import { localizedPath } from '../lib/i18n.ts';
import { pageMeta } from '../lib/meta.ts';
import { readFlow } from '../lib/session.server.ts';
import { useLocalPath, useT } from '../lib/use-root.ts';

/** A waiting-list place is offered when this visit already told us an email address. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { flow } = await readFlow(request, context);
  return { canJoinWaitlist: Boolean(flow.registrationEmail) };
}

/** Hands the visitor to the lobby with a short-lived token for the email they typed. */
export async function action({ request, context }: Route.ActionArgs) {
  const { flow } = await readFlow(request, context);
  const { prefix } = context.get(localeContext);
  if (!flow.registrationEmail) throw redirect(localizedPath(prefix, '/membership-interest/apply'));
  const token = await signLobbyToken({ email: flow.registrationEmail }, context.get(requestInfoContext).appSecret, 60 * 60);
  throw redirect(localizedPath(prefix, '/lobby', new URLSearchParams({ token }).toString()));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.deny.title', noIndex: true });

const MESSAGES: Record<string, string> = {
  invalid: 'deny.invalid',
  expired: 'deny.expired',
  'no-balance': 'invitation.noBalanceAnonymous',
  'invalid-link': 'invitation.invalidLink',
  referrer: 'deny.referrer',
};

const EVENTS: Record<string, TrackedEvent['event']> = {
  expired: 'error_registration_code_expired',
  'no-balance': 'error_registration_code_no_balance',
  'invalid-link': 'error_registration_timestamp_missing',
};

/** Access denied: which invitation problem, and what the visitor can do instead. */
export default function Deny({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  const [params] = useSearchParams();
  const reason = params.get('reason') ?? 'invalid';
  const rc = params.get('rc');
  const from = params.get('from');
  useEffect(() => {
    if (reason === 'referrer') {
      try {
        window.localStorage.setItem(DENIED_INVITATION_KEY, JSON.stringify({ registrationCode: rc, referrer: from, at: new Date().toISOString() }));
      } catch {
        // Storage can be unavailable (private mode); the page works without it.
      }
      track({ event: 'landing_forbidden_referrer', referrerHost: from ?? '' });
      return;
    }
    const event = EVENTS[reason];
    if (event) track({ event } as TrackedEvent);
  }, [reason, rc, from]);
  return (
    <MessageScreen
      inverse
      eyebrow={t('brand.name')}
      title={t('deny.title')}
      text={t(MESSAGES[reason] ?? 'deny.invalid')}
      actions={[{ label: t('deny.applyCta'), to: path('/membership-interest/apply') }]}
    >
      <p className="mt-6 text-paper/80">{t('deny.alternatives')}</p>
      {loaderData.canJoinWaitlist && (
        <Form method="post" className="mt-6">
          <button type="submit" className="link text-paper">{t('deny.waitlistCta')}</button>
        </Form>
      )}
    </MessageScreen>
  );
}
