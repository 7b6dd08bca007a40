import type { Route } from './+types/email-active-complete';
import { MessageScreen } from '../components/message-screen.tsx';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { requireOutcome } from '../lib/registration/registration.server.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useT } from '../lib/page/use-root.ts';

/** Seconds before the visitor is taken to the login (where the password can be reset). */
export const LOGIN_REDIRECT_SECONDS = 8;

export async function loader(args: Route.LoaderArgs) {
  await requireOutcome(args, 'ACCOUNT_ACTIVE');
  return null;
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: 'meta.emailActiveComplete.title', noIndex: true }),
  // A refresh works without JavaScript and before hydration alike.
  { httpEquiv: 'refresh', content: `${LOGIN_REDIRECT_SECONDS};url=${EXTERNAL_LINKS.login}` },
];

export default function EmailActiveComplete() {
  const t = useT();
  useTrackOnce({ event: 'error_registration_account_active' });
  return (
    <MessageScreen
      title={t('emailActive.title')}
      text={t('emailActive.text')}
      actions={[{ label: t('emailActive.loginNow'), to: EXTERNAL_LINKS.login, external: true }]}
    >
      <p className="mt-6 text-sm text-stone" role="status">{t('emailActive.redirecting')}</p>
    </MessageScreen>
  );
}
