import { Form } from 'react-router';
import { EXTERNAL_LINKS, SOCIAL_LINKS } from '../lib/external-links.ts';
import { useFeatureIsOn } from '../lib/experiments/experiments.tsx';
import type { VoucherTerms } from '@velvet/validation/customization';
import { FIGURES, type LandingNumbers } from '../lib/landing/marketing-figures.ts';
import { useT } from '../lib/page/use-root.ts';
import { useWebView } from '../lib/web-view/use-web-view.ts';
import { EmailSuggestion } from './email-suggestion.tsx';
import { FormGuard } from './form-guard.tsx';
import { OnboardingFlow } from './onboarding-flow.tsx';

/**
 * What the landing action answered for the waiting-list form: the field's message ids and the
 * value sent; `sent` once the lobby link went to that address; `notice` when the API refused.
 */
export interface WaitlistResult {
  errors: string[];
  value: string;
  sent?: boolean;
  notice?: { id: string; values?: Record<string, string | number> } | null;
  /** "Did you mean …?" for the address sent (issue 24 §3). */
  emailSuggestion?: string | null;
}

/** The waiting-list form's address field: the target of a refused code's "Join the waiting list". */
export const WAITLIST_FIELD = 'waitlist-email';

/**
 * The join-wait-list block's way in: the visitor's address, to which the lobby link is emailed
 * (its consent text names that address, spec §2; only the address's owner can join, ADR 029).
 * A plain form, checked by the landing action; its proof of work (ADR 041) is solved by the
 * page's script once it runs.
 */
function WaitlistForm({ result }: { result: WaitlistResult | undefined }) {
  const t = useT();
  const error = result?.errors[0];
  const sent = result?.sent ? <p role="status" className="mt-8 leading-relaxed">{t('waitlistBlock.sent', { email: result.value })}</p> : null;
  // Sent, but perhaps to a typo: the form stays beside the answer so the suggested address can be sent too.
  if (sent && !result?.emailSuggestion) return sent;
  return (
    <>
      {sent}
      <Form method="post" noValidate preventScrollReset className="mt-8 space-y-4">
        <input type="hidden" name="intent" value="waitlist" />
        <FormGuard proofOfWork={{ form: 'WAITING_LIST' }} />
        <div>
          <label htmlFor={WAITLIST_FIELD} className="eyebrow block text-stone">{t('registration.email')}</label>
          <input
            id={WAITLIST_FIELD}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            defaultValue={result?.value}
            className="field-input mt-2"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${WAITLIST_FIELD}-error` : undefined}
          />
          <div id={`${WAITLIST_FIELD}-error`} aria-live="polite" className="mt-2 min-h-5 text-sm text-alert">
            {error ? <p>{t(error)}</p> : null}
          </div>
          <EmailSuggestion inputId={WAITLIST_FIELD} server={result?.emailSuggestion} />
        </div>
        {result?.notice && <p role="alert" className="border-l-2 border-alert pl-4 text-sm">{t(result.notice.id, result.notice.values)}</p>}
        <button type="submit" className="btn-outline">{t('lobby.join')}</button>
      </Form>
    </>
  );
}

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

/**
 * The landing page below the hero. `voucher` is the welcome voucher of the visitor's
 * invitation (its customization), so "Why members stay" promises what the headline does.
 * `showWaitlist`: the join-wait-list block, for visitors without a usable code only.
 */
export function LandingSections({
  voucher,
  numbers,
  showWaitlist,
  waitlist,
}: {
  voucher: VoucherTerms;
  /** The figures and the voucher's minimum order value, formatted by the loader (ADR 068). */
  numbers: LandingNumbers;
  showWaitlist: boolean;
  waitlist?: WaitlistResult | undefined;
}) {
  const t = useT();
  const webView = useWebView();
  // The horizontal onboarding flow ("How it works") is a feature flag (ADR 012).
  const showOnboarding = useFeatureIsOn('show-onboarding', true);
  const figures = [
    ['figures.discount', { percent: FIGURES.maxDiscountPercent }, 'figures.discount.caption', {}],
    ['figures.labels', { count: numbers.labels }, 'figures.labels.caption', {}],
    ['figures.items', { count: numbers.items }, 'figures.items.caption', {}],
    ['figures.daily', { count: numbers.daily }, 'figures.daily.caption', {}],
    ['figures.customers', { count: numbers.customers }, 'figures.customers.caption', {}],
    ['figures.rating', { rating: numbers.rating }, 'figures.rating.caption', { count: numbers.reviews }],
    ['figures.countries', { count: FIGURES.countries }, 'figures.countries.caption', {}],
  ] as const;
  const minimum = numbers.minimumOrder || null;
  const benefits = [
    ['benefits.discount.title', 'benefits.discount.text'],
    ['benefits.firstOrder.title', minimum ? 'benefits.firstOrder.textMov' : 'benefits.firstOrder.text'],
    ['benefits.shipping.title', 'benefits.shipping.text'],
    ['benefits.free.title', 'benefits.free.text'],
  ] as const;
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
              <h3 className="text-lg font-medium">{t(title, { percent: voucher.percent })}</h3>
              <p className="mt-3 leading-relaxed text-stone">{t(text, minimum ? { minimum } : {})}</p>
            </li>
          ))}
        </ul>
      </Section>

      {showOnboarding && <OnboardingFlow />}

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

      {(showWaitlist || !webView.active) && (
      <section className="bg-paper" aria-label={t('loginBlock.title')}>
        <div className={`mx-auto grid max-w-6xl gap-px bg-line px-0 ${showWaitlist && !webView.active ? 'sm:grid-cols-2' : ''}`}>
          {showWaitlist && (
          /* The deny page's "request a new link" for a broken waiting-list link leads here (#waitlist). */
          <div id="waitlist" className="bg-paper px-6 py-16 sm:px-10">
            <h2 className="display text-3xl">{t('waitlistBlock.title')}</h2>
            <p className="mt-4 leading-relaxed text-stone">{t('waitlistBlock.text')}</p>
            <WaitlistForm result={waitlist} />
          </div>
          )}
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
      )}

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
