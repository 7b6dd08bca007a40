import { redirect } from 'react-router';
import type { Route } from './+types/membership-interest-confirmation';
import { MessageScreen } from '../components/message-screen.tsx';
import { localeContext } from '../lib/page/context.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { readFlow } from '../lib/session.server.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

/** "Email Address Submitted Successfully" only after this visit submitted one. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { flow } = await readFlow(request, context);
  if (!flow.membershipApplicationEmail) throw redirect(localizedPath(context.get(localeContext).prefix, '/membership-interest/apply'));
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.membershipInterestConfirmation.title', noIndex: true });

export default function MembershipInterestConfirmation() {
  const t = useT();
  const path = useLocalPath();
  return (
    <MessageScreen
      inverse
      title={t('membershipInterestConfirmation.title')}
      text={t('membershipInterestConfirmation.text')}
      actions={[{ label: t('nav.backToStart'), to: path('/') }]}
    />
  );
}
