import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { CopyButton } from './copy-button.tsx';
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
      {voucher && <VoucherCard voucher={voucher} />}
    </MessageScreen>
  );
}

/**
 * The welcome voucher as a gift (issue 22 row 8): what it is worth, its terms, and the code in
 * the brand's sans — not the system's monospace — with a button that copies it. The welcome page
 * and the verify-email page that noticed the activation show it; the welcome email frames the same.
 */
export function VoucherCard({ voucher }: { voucher: WelcomeVoucher }) {
  const t = useT();
  const intl = useIntl();
  return (
    <section aria-labelledby="voucher-title" className="@container mt-10 border border-ink p-5 text-center sm:p-8">
      <h2 id="voucher-title" className="eyebrow text-stone">{t('activation.voucherTitle')}</h2>
      <p className="display mt-4 text-4xl">{t('activation.voucherPercent', { percent: voucher.percent })}</p>
      <ul className="mt-3 space-y-1 text-stone">
        <li>
          {voucher.minimumOrderValue
            ? t('activation.voucherMov', {
                minimum: intl.formatNumber(voucher.minimumOrderValue, { style: 'currency', currency: voucher.currency, maximumFractionDigits: 0 }),
              })
            : t('activation.voucherNoMov')}
        </li>
        <li>{t('activation.voucherValidUntil', { date: new Date(voucher.validUntil) })}</li>
      </ul>
      <div aria-hidden="true" className="mx-auto my-6 w-12 border-t border-ink" />
      <dl>
        <dt className="eyebrow text-stone">{t('activation.voucherCode')}</dt>
        {/* One line, never broken at its dashes: the size follows the box (22 characters of the brand's sans fit down to a 320 px phone). */}
        <dd className="mt-2 text-[clamp(0.875rem,calc(100cqi/16.5),1.375rem)] font-medium whitespace-nowrap tracking-[0.12em] tabular-nums" data-testid="voucher-code">
          {voucher.code}
        </dd>
      </dl>
      <CopyButton value={voucher.code} label="activation.voucherCopy" copied="activation.voucherCopied" failed="activation.voucherCopyFailed" className="btn-outline" />
      <p className="mt-3 text-sm text-stone">{t('activation.voucherHowTo')}</p>
    </section>
  );
}
