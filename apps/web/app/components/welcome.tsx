import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { MessageScreen } from './message-screen.tsx';
import { sha256, track } from '../lib/analytics.ts';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import type { WelcomeVoucher } from '../lib/operations.ts';
import { useT } from '../lib/use-root.ts';

/**
 * The welcome page of a new member: after the emailed activation link, or at once after a
 * social sign-up whose provider vouched for the address. Tracks the successful registration.
 */
export function Welcome({
  firstName,
  voucher,
  registrationId,
}: {
  firstName: string | null;
  voucher: WelcomeVoucher | null;
  registrationId: string | null;
}) {
  const t = useT();
  const intl = useIntl();
  useEffect(() => {
    void (registrationId ? sha256(registrationId) : Promise.resolve(undefined)).then((registrationIdHash) => {
      // Spec §4's order: the welcome page, then the successful registration last.
      track({ event: 'welcome_landed' });
      track({ event: 'registration_success', ...(registrationIdHash ? { registrationIdHash } : {}) });
    });
  }, [registrationId]);
  return (
    <MessageScreen
      eyebrow={t('brand.name')}
      title={firstName ? t('activation.welcomeTitle', { firstName }) : t('activation.welcomeTitleAnonymous')}
      text={t('activation.welcomeText')}
      actions={[{ label: t('activation.shopNow'), to: EXTERNAL_LINKS.login, external: true }]}
    >
      {voucher && (
        <section aria-labelledby="voucher-title" className="mt-10 border border-ink p-8">
          <h2 id="voucher-title" className="eyebrow text-stone">{t('activation.voucherTitle')}</h2>
          <p className="display mt-4 text-4xl">{t('activation.voucherPercent', { percent: voucher.percent })}</p>
          <p className="mt-2 text-stone">
            {voucher.minimumOrderValue
              ? t('activation.voucherMov', {
                  minimum: intl.formatNumber(voucher.minimumOrderValue, { style: 'currency', currency: voucher.currency, maximumFractionDigits: 0 }),
                })
              : t('activation.voucherNoMov')}
          </p>
          <dl className="mt-6">
            <div>
              <dt className="eyebrow text-stone">{t('activation.voucherCode')}</dt>
              <dd className="mt-1 font-mono text-xl tracking-widest" data-testid="voucher-code">{voucher.code}</dd>
            </div>
          </dl>
          <p className="mt-4 text-stone">{t('activation.voucherValidUntil', { date: new Date(voucher.validUntil) })}</p>
        </section>
      )}
    </MessageScreen>
  );
}
