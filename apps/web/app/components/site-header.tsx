import { useMemo } from 'react';
import { Link } from 'react-router';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { AbTested, useFeatureIsOn, useFeatureValue } from '../lib/experiments/experiments.tsx';
import { useLiveNow } from '../lib/calendar/live-now.ts';
import { nextBannerChange, promoAt } from '../lib/calendar/promo.ts';
import { useLocalPath, useRootData, useT } from '../lib/page/use-root.ts';
import { useWebView } from '../lib/web-view/use-web-view.ts';
import { Logo } from './logo.tsx';
import { PromoCountdown } from './promo-countdown.tsx';

export function SkipLink() {
  const t = useT();
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:bg-paper focus:px-4 focus:py-2 focus:text-ink">
      {t('nav.skipToContent')}
    </a>
  );
}

/** The copies of the standing promise the `top-banner-copy` A/B test compares (control first). */
const TOP_BANNER_COPY: Record<string, string> = { control: 'banner.top', 'members-first': 'banner.topMembersFirst' };

/**
 * The standing promise, in the variation the visitor is assigned to (ADR 012). Its own
 * component, so the experiment is evaluated — and the assignment tracked — only when the
 * line is actually shown (not during a promotion).
 */
function StandingPromise() {
  const t = useT();
  const copy = useFeatureValue('top-banner-copy', 'control');
  return <>{t(TOP_BANNER_COPY[copy] ?? 'banner.top')}</>;
}

const never = () => null;

/**
 * The thin black line above everything: the promotion of the club's calendar with its live
 * countdown (ADR 021) — moving on by itself when one ends or the next begins — or, between
 * promotions and when the promo-banner flag is off, the standing promise.
 */
function TopBanner() {
  const t = useT();
  const { now: serverNow, promoSeasons } = useRootData();
  const promoOn = useFeatureIsOn('promo-banner', true);
  const nextChange = useMemo(() => (promoOn ? (instant: number) => nextBannerChange(instant, promoSeasons) : never), [promoOn, promoSeasons]);
  const now = useLiveNow(serverNow, nextChange);
  const { current } = promoOn ? promoAt(now, promoSeasons) : { current: null };
  return (
    <div className="bg-ink px-6 py-2 text-center text-xs font-medium tracking-[0.14em] text-paper uppercase" data-testid="top-banner">
      {current ? (
        <>
          <span data-testid="promo">{t(`promo.${current.promo}`)}</span>
          <span aria-hidden="true" className="mx-3 hidden text-paper/50 sm:inline">
            —
          </span>
          <span className="mt-1 block text-paper/80 sm:mt-0 sm:inline">
            <PromoCountdown remaining={current.endsAt - now} />
          </span>
        </>
      ) : (
        // The line is an A/B test's: its copy once the A/B tests have loaded, its place kept until then.
        <AbTested pending={<span aria-hidden="true">{'\u00a0'}</span>}>
          <StandingPromise />
        </AbTested>
      )}
    </div>
  );
}

/**
 * @param shopSignIn the shop's member sign-in at the right: not in the console, whose people are
 *   signed in to it already and are not shopping there (its own navigation signs out).
 */
export function SiteHeader({ inverse = false, banner = false, shopSignIn = true }: { inverse?: boolean; banner?: boolean; shopSignIn?: boolean }) {
  const t = useT();
  const path = useLocalPath();
  const webView = useWebView();
  return (
    <header className={inverse ? 'text-paper' : 'border-b border-line'}>
      {banner && <TopBanner />}
      {/*
        On the narrowest phones (320 px) the wordmark and the sign-in label share 272 px: both a
        step smaller there, the label one phrase on one line ("SE CONNECTER", not "SE /
        CONNECTER" against the wordmark), with air between them (issue 22, the review's leftovers).
      */}
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-6 py-5">
        <Link to={path('/')} aria-label={t('nav.home')}>
          <Logo inverse={inverse} />
        </Link>
        {shopSignIn && !webView.active && (
        <a href={EXTERNAL_LINKS.login} className={`shrink-0 text-sm font-medium tracking-[0.14em] whitespace-nowrap uppercase max-[359px]:text-xs max-[359px]:tracking-[0.1em] ${inverse ? 'text-paper' : 'text-ink'} hover:underline underline-offset-4`}>
          {t('nav.login')}
        </a>
        )}
      </div>
    </header>
  );
}
