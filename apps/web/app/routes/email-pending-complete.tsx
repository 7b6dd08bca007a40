import type { Route } from './+types/email-pending-complete';
import { MessageScreen } from '../components/message-screen.tsx';
import { pageMeta } from '../lib/page/meta.ts';
import { requireOutcome } from '../lib/registration/registration.server.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

export async function loader(args: Route.LoaderArgs) {
  const flow = await requireOutcome(args, 'ACCOUNT_PENDING');
  return { email: flow.registrationEmail ?? null, limitReached: flow.resendLimitReached === true };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.emailPendingComplete.title', noIndex: true });

/** The account waits for activation: the email went out again. */
export default function EmailPendingComplete({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  useTrackOnce({ event: 'error_registration_account_pending' });
  return (
    <MessageScreen
      title={t('emailPending.title')}
      text={t(loaderData.limitReached ? 'emailPending.limit' : 'emailPending.text')}
      actions={[
        { label: t('emailPending.differentAddress'), to: path('/registration/formstarted', 'email=new') },
        { label: t('emailPending.backToRegistration'), to: path('/registration/formstarted'), variant: 'outline' },
      ]}
    >
      {loaderData.email && <p className="mt-6 text-lg">{t('formFinished.email', { email: loaderData.email })}</p>}
    </MessageScreen>
  );
}
