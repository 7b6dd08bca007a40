import type { Route } from './+types/membership-interest-confirmation';
import { MessageScreen } from '../components/message-screen.tsx';
import { pageMeta } from '../lib/meta.ts';
import { useLocalPath, useT } from '../lib/use-root.ts';

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
