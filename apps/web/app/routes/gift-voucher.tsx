import type { Route } from './+types/gift-voucher';
import { MessageScreen } from '../components/message-screen.tsx';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.giftVoucher.title' });

export default function GiftVoucher() {
  const t = useT();
  const path = useLocalPath();
  return (
    <MessageScreen
      title={t('giftVoucher.title')}
      text={t('giftVoucher.text')}
      actions={[
        { label: t('nav.login'), to: EXTERNAL_LINKS.login, external: true },
        { label: t('landing.noCode.cta'), to: path('/membership-interest'), variant: 'outline' },
      ]}
    />
  );
}
