import { useIntl } from 'react-intl';
import { Link } from 'react-router';
import { EXTERNAL_LINKS, SOCIAL_LINKS } from '../lib/external-links.ts';
import { useFeatureIsOn } from '../lib/experiments.tsx';
import { FIGURES } from '../lib/marketing-figures.ts';
import { useLocalPath, useT } from '../lib/use-root.ts';
import { useWebView } from '../lib/use-web-view.ts';

function Section({ id, title, children, tone = 'paper' }: { id: string; title: string; children: React.ReactNode; tone?: 'paper' | 'mist' }) {
  return (
    <section aria-labelledby={id} className={tone === 'mist' ? 'bg-mist' : 'bg-paper'}>
      <div className="mx-auto max-w-6xl px-6 py-20 sm:py-24">
        <h2 id={id} className="display text-4xl sm:text-5xl">{title}</h2>
        {children}
      </div>
    </section>
  );
}

export function LandingSections() {
  const t = useT();
  const intl = useIntl();
  const path = useLocalPath();
  const webView = useWebView();
  // The horizontal onboarding flow ("How it works") is a feature flag (ADR 012).
  const showOnboarding = useFeatureIsOn('show-onboarding', true);
  const n = (value: number) => intl.formatNumber(value);
  const figures = [
    ['figures.discount', { percent: FIGURES.maxDiscountPercent }, 'figures.discount.caption', {}],
    ['figures.labels', { count: n(FIGURES.labels) }, 'figures.labels.caption', {}],
    ['figures.items', { count: intl.formatNumber(FIGURES.items, { notation: 'compact' }) }, 'figures.items.caption', {}],
    ['figures.daily', { count: n(FIGURES.dailyNewItems) }, 'figures.daily.caption', {}],
    ['figures.customers', { count: intl.formatNumber(FIGURES.customers, { notation: 'compact' }) }, 'figures.customers.caption', {}],
    ['figures.rating', { rating: intl.formatNumber(FIGURES.appRating, { minimumFractionDigits: 1 }) }, 'figures.rating.caption', { count: n(FIGURES.appReviews) }],
    ['figures.countries', { count: FIGURES.countries }, 'figures.countries.caption', {}],
  ] as const;
  const benefits = [
    ['benefits.discount.title', 'benefits.discount.text'],
    ['benefits.firstOrder.title', 'benefits.firstOrder.text'],
    ['benefits.shipping.title', 'benefits.shipping.text'],
    ['benefits.free.title', 'benefits.free.text'],
  ] as const;
  const steps = ['welcome', 'brands', 'confidence', 'account'] as const;
  return (
    <>
      <Section id="figures" title={t('figures.title')}>
        <dl className="mt-12 grid grid-cols-2 gap-x-8 gap-y-12 lg:grid-cols-4">
          {figures.map(([value, values, caption, captionValues]) => (
            <div key={value} className="border-t border-ink pt-5">
              <dt className="display text-3xl sm:text-4xl">{t(value, values)}</dt>
              <dd className="mt-2 text-sm text-stone">{t(caption, captionValues)}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section id="benefits" title={t('benefits.title')} tone="mist">
        <ul className="mt-12 grid gap-10 sm:grid-cols-2 lg:grid-cols-4">
          {benefits.map(([title, text]) => (
            <li key={title}>
              <h3 className="text-lg font-medium">{t(title, { percent: FIGURES.firstOrderPercent })}</h3>
              <p className="mt-3 leading-relaxed text-stone">{t(text)}</p>
            </li>
          ))}
        </ul>
      </Section>

      {showOnboarding && (
      <Section id="onboarding" title={t('onboarding.title')}>
        <ol className="mt-12 flex snap-x gap-6 overflow-x-auto pb-4 lg:grid lg:grid-cols-4 lg:overflow-visible">
          {steps.map((step, index) => (
            <li key={step} className="min-w-64 snap-start border border-line p-8">
              <p className="display text-5xl text-stone" aria-hidden="true">{index + 1}</p>
              <h3 className="mt-6 text-lg font-medium">{t(`onboarding.${step}.title`)}</h3>
              <p className="mt-3 leading-relaxed text-stone">{t(`onboarding.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </Section>
      )}

      <Section id="faq" title={t('faq.title')} tone="mist">
        <div className="mt-10 divide-y divide-line border-y border-line">
          {([1, 2, 3] as const).map((i) => (
            <details key={i} className="group py-6">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-6 text-lg font-medium">
                {t(`faq.q${i}`)}
                <span aria-hidden="true" className="text-2xl transition-transform group-open:rotate-45">+</span>
              </summary>
              <p className="mt-4 max-w-3xl leading-relaxed text-stone">{t(`faq.a${i}`)}</p>
            </details>
          ))}
        </div>
      </Section>

      <section className="bg-paper" aria-label={t('loginBlock.title')}>
        <div className={`mx-auto grid max-w-6xl gap-px bg-line px-0 ${webView.active ? '' : 'sm:grid-cols-2'}`}>
          <div className="bg-paper px-6 py-16 sm:px-10">
            <h2 className="display text-3xl">{t('waitlistBlock.title')}</h2>
            <p className="mt-4 leading-relaxed text-stone">{t('waitlistBlock.text')}</p>
            <p className="mt-8">
              <Link className="btn-outline" to={path('/membership-interest')}>{t('landing.noCode.cta')}</Link>
            </p>
          </div>
          {!webView.active && (
          <div className="bg-paper px-6 py-16 sm:px-10">
            <h2 className="display text-3xl">{t('loginBlock.title')}</h2>
            <p className="mt-4 leading-relaxed text-stone">{t('loginBlock.text')}</p>
            <p className="mt-8">
              <a className="btn-primary" href={EXTERNAL_LINKS.login} rel="noopener">{t('nav.login')}</a>
            </p>
          </div>
          )}
        </div>
      </section>

      {!webView.active && (
      <section aria-labelledby="follow-us" className="border-t border-line bg-paper">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-6 px-6 py-12">
          <h2 id="follow-us" className="eyebrow">{t('followUs.title')}</h2>
          <ul className="flex flex-wrap gap-6 text-sm">
            {SOCIAL_LINKS.map((s) => (
              <li key={s.name}>
                <a className="link" href={s.href} rel="noopener">{s.name}</a>
              </li>
            ))}
          </ul>
        </div>
      </section>
      )}
    </>
  );
}
