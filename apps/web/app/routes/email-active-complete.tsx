import { useEffect, useState } from 'react';
import type { Route } from './+types/email-active-complete';
import { MessageScreen } from '../components/message-screen.tsx';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { requireOutcome } from '../lib/registration/registration.server.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useT } from '../lib/page/use-root.ts';

/** Seconds before the visitor is taken to the login (where the password can be reset). */
const LOGIN_REDIRECT_SECONDS = 8;

export async function loader(args: Route.LoaderArgs) {
  await requireOutcome(args, 'ACCOUNT_ACTIVE');
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.emailActiveComplete.title', noIndex: true });

/**
 * "You are already a member": the visitor is taken to the login shortly (spec §2), by the page's
 * script and never by a meta refresh, which no one can stop (WCAG 2.2.1, axe's critical
 * "meta-refresh"; UX review of 27 Nov, row 18) — "Stay on this page" stops it. Without a script
 * there is no taking: the login button is there, and the line that promises it is hidden.
 */
export default function EmailActiveComplete() {
  const t = useT();
  const [taking, setTaking] = useState(true);
  useTrackOnce({ event: 'error_registration_account_active' });
  useEffect(() => {
    if (!taking) return;
    const timer = setTimeout(() => window.location.assign(EXTERNAL_LINKS.login), LOGIN_REDIRECT_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [taking]);
  return (
    <MessageScreen
      title={t('emailActive.title')}
      text={t('emailActive.text')}
      actions={[{ label: t('emailActive.loginNow'), to: EXTERNAL_LINKS.login, external: true }]}
    >
      {taking && (
        <div className="mt-6 flex flex-wrap items-baseline gap-x-4 gap-y-2 text-sm noscript:hidden">
          <p className="text-stone" role="status">
            {t('emailActive.redirecting')}
          </p>
          <button type="button" className="link text-ink" onClick={() => setTaking(false)}>
            {t('emailActive.stay')}
          </button>
        </div>
      )}
    </MessageScreen>
  );
}
