import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { MessageScreen } from './message-screen.tsx';
import { sha256, trackStep } from '../lib/analytics/analytics.ts';
import { shopLink } from '../lib/landing/landing-variants.ts';
import type { WelcomeVoucher } from '../lib/api/operations.ts';
import { useT } from '../lib/page/use-root.ts';

/**
 * A new member's first page, with the welcome voucher: after the emailed activation link, or
 * at once after a social sign-up whose provider vouched for the address. Tracks the successful
 * registration, the last step of spec §4. The funnel's "welcome page" is the page after the
 * registration form — the verify-email page, or "check your inbox" — which comes before the
 * activate-account page; a vouched-for social sign-up has neither, so this page is its
 * welcome page too (`welcomeLanded`).
 */
export function Welcome({
  firstName,
  voucher,
  memberId,
  welcomeLanded = false,
  sourcePath = null,
}: {
  firstName: string | null;
  voucher: WelcomeVoucher | null;
  memberId: string | null;
  welcomeLanded?: boolean;
  /** The shop page the visitor came from (spec §3 sourcePath): where "Shop now" leads. */
  sourcePath?: string | null;
}) {
  const t = useT();
  const intl = useIntl();
  useEffect(() => {
    // After the page's own events (its effects run first; the hash resolves later).
    // The spec's "registration id" (§9) is the member's id: one registration, one member.
    void (memberId ? sha256(memberId) : Promise.resolve(undefined)).then((registrationIdHash) => {
      if (welcomeLanded) trackStep({ event: 'welcome_landed' });
      trackStep({ event: 'registration_success', ...(registrationIdHash ? { registrationIdHash } : {}) });
    });
  }, [memberId, welcomeLanded]);
  return (
    <MessageScreen
      title={firstName ? t('activation.welcomeTitle', { firstName }) : t('activation.welcomeTitleAnonymous')}
      text={t('activation.welcomeText')}
      actions={[{ label: t('activation.shopNow'), to: shopLink(sourcePath), external: true }]}
    >
      {voucher && (
        <section aria-labelledby="voucher-title" className="@container mt-10 border border-ink p-5 sm:p-8">
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
              {/* One line, never broken at its dashes: the size follows the box (22 monospace characters fit down to a 320 px phone). */}
              <dd className="mt-1 font-mono text-[clamp(0.875rem,calc(100cqi/14.6),1.25rem)] whitespace-nowrap tracking-wider" data-testid="voucher-code">{voucher.code}</dd>
            </div>
          </dl>
          <p className="mt-4 text-stone">{t('activation.voucherValidUntil', { date: new Date(voucher.validUntil) })}</p>
        </section>
      )}
    </MessageScreen>
  );
}
