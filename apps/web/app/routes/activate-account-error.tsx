import { useSearchParams } from 'react-router';
import type { Route } from './+types/activate-account-error';
import { MessageScreen } from '../components/message-screen.tsx';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.activateAccountError.title', noIndex: true });

/** error=invalid: the link is not one of ours; anything else: the attempt failed. */
export default function ActivateAccountError() {
  const t = useT();
  const path = useLocalPath();
  const [params] = useSearchParams();
  const kind = params.get('error') === 'invalid' ? 'invalidLink' : 'failed';
  useTrackOnce({ event: kind === 'invalidLink' ? 'error_registration_activation_not_found' : 'error_registration_activation_failed' });
  return (
    <MessageScreen
      title={t(`activationError.${kind}.title`)}
      text={t(`activationError.${kind}.text`)}
      actions={[
        { label: t('error.tryAgain'), to: path('/') },
        { label: t('activationError.contact'), to: EXTERNAL_LINKS.customerService, external: true, variant: 'outline' },
      ]}
    />
  );
}
