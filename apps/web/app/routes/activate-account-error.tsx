import { data, useSearchParams } from 'react-router';
import type { Route } from './+types/activate-account-error';
import { isFreshProof, readFlow } from '../lib/session.server.ts';
import { MessageScreen } from '../components/message-screen.tsx';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.activateAccountError.title', noIndex: true });

/**
 * Whether the server just sent the visitor here (routes/activate-account.tsx): the proof is
 * spent, so the failure is reported once; a hand-made or reloaded address reports nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { flow, save } = await readFlow(request, context);
  const failure = flow.activationFailure;
  const reported = failure && isFreshProof(failure.at) ? failure.kind : null;
  if (!failure) return data({ reported });
  const { activationFailure: _spent, ...rest } = flow;
  return data({ reported }, { headers: { 'Set-Cookie': await save(rest) } });
}

/** error=invalid: the link is not one of ours; anything else: the attempt failed. */
export default function ActivateAccountError({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  const [params] = useSearchParams();
  const kind = params.get('error') === 'invalid' ? 'invalidLink' : 'failed';
  const { reported } = loaderData;
  useTrackOnce(reported ? { event: reported === 'invalid' ? 'error_registration_activation_not_found' : 'error_registration_activation_failed' } : null);
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
