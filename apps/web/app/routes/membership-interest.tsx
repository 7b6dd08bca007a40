import type { Route } from './+types/membership-interest';
import { MessageScreen } from '../components/message-screen.tsx';
import { pageMeta } from '../lib/page/meta.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.membershipInterest.title', description: 'meta.membershipInterest.description' });

export default function MembershipInterest() {
  const t = useT();
  const path = useLocalPath();
  return (
    <MessageScreen
      inverse
      eyebrow={t('landing.hero.eyebrow')}
      title={t('membershipInterest.title')}
      text={t('membershipInterest.text')}
      actions={[{ label: t('membershipInterest.cta'), to: path('/membership-interest/apply') }]}
    />
  );
}
