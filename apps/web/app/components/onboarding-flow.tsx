import { useEffect, useRef, useState } from 'react';
import { AbTested, useFeatureValue } from '../lib/experiments/experiments.tsx';
import { useLaterMessages, useT } from '../lib/page/use-root.ts';

/** The onboarding's steps (spec §2): welcome, luxury brands, confidence, create account. */
const STEPS = ['welcome', 'brands', 'confidence', 'account'] as const;

/**
 * The horizontal onboarding flow ("How it works"), in the variant the `onboarding-variant`
 * feature gives (ADR 024): `full` tells each step in a card (a row that scrolls sideways on
 * phones); `short` is one compact band — the four steps by name in a row and a way back up to
 * the sign-up card — for pages where the story should not push the rest down. The feature
 * ships as an experiment at zero coverage: operators start it with `experiment set`, and a
 * forced link (`?onboarding-variant=1`) previews the short variant. Its variant is an A/B
 * test's: shown once the A/B tests have loaded.
 */
export function OnboardingFlow() {
  return (
    <AbTested>
      <AssignedOnboardingFlow />
    </AbTested>
  );
}

function AssignedOnboardingFlow() {
  const t = useT();
  const variant = useFeatureValue<string>('onboarding-variant', 'full');
  if (variant === 'short') {
    return (
      <section aria-labelledby="onboarding" className="border-y border-line bg-paper" data-variant="short">
        {/* On phones the way up comes after the steps; wider, it sits beside the title. */}
        <div className="mx-auto grid max-w-6xl gap-8 px-6 py-12 sm:grid-cols-[1fr_auto] sm:items-end">
          <div>
            <h2 id="onboarding" className="display text-3xl sm:text-4xl">{t('onboarding.title')}</h2>
            <p className="mt-2 text-stone">{t('onboarding.short.text')}</p>
          </div>
          <ol className="grid grid-cols-2 gap-6 sm:col-span-2 sm:grid-cols-4">
            {STEPS.map((step, index) => (
              <li key={step} className="border-t border-ink pt-3">
                <p className="eyebrow text-stone" aria-hidden="true">{String(index + 1).padStart(2, '0')}</p>
                <h3 className="mt-2 font-medium">{t(`onboarding.${step}.title`)}</h3>
              </li>
            ))}
          </ol>
          <a className="btn-primary sm:col-start-2 sm:row-start-1" href="#code">{t('onboarding.short.cta')}</a>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby="onboarding" className="bg-paper" data-variant="full">
      <div className="mx-auto max-w-6xl px-6 py-20 sm:py-24">
        <h2 id="onboarding" className="display text-4xl sm:text-5xl">{t('onboarding.title')}</h2>
        <StepScroller />
      </div>
    </section>
  );
}

/** Where the scroller stands: the first card in view, and whether it scrolls at all. */
function useScrollerPosition(list: React.RefObject<HTMLOListElement | null>) {
  const [position, setPosition] = useState({ current: 0, scrollable: true, hydrated: false });
  useEffect(() => {
    const ol = list.current;
    if (!ol) return;
    const measure = () => {
      const [first, second] = [...ol.children] as HTMLElement[];
      const step = first && second ? second.offsetLeft - first.offsetLeft : ol.clientWidth;
      setPosition({ current: step > 0 ? Math.round(ol.scrollLeft / step) : 0, scrollable: ol.scrollWidth > ol.clientWidth + 1, hydrated: true });
    };
    measure();
    ol.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(ol);
    return () => {
      ol.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [list]);
  return position;
}

/**
 * The full variant's cards: a row of four on a desktop; on narrower screens a scroller that
 * snaps card by card, each card whole (one on a phone, two on a tablet), never cut at the
 * screen's edge. It is a tab stop whose arrow keys move it (axe "scrollable-region-focusable"),
 * and once the page's script runs, "previous" and "next" and the position ("2 / 4") sit under
 * it (UX review of 27 Nov, row 14).
 */
function StepScroller() {
  const t = useT();
  const list = useRef<HTMLOListElement>(null);
  const { current, scrollable, hydrated } = useScrollerPosition(list);
  useLaterMessages('onboarding.previous', 'onboarding.next', 'registration.step');
  const go = (index: number) => {
    const ol = list.current;
    const card = ol?.children[index] as HTMLElement | undefined;
    if (!ol || !card) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    ol.scrollTo({ left: card.offsetLeft - (ol.children[0] as HTMLElement).offsetLeft, behavior: reduce ? 'auto' : 'smooth' });
  };
  const arrow = (direction: 'previous' | 'next') => (
    <button
      type="button"
      className="grid size-11 place-items-center border border-ink disabled:border-line disabled:text-stone"
      aria-label={t(`onboarding.${direction}`)}
      disabled={direction === 'previous' ? current === 0 : current >= STEPS.length - 1}
      onClick={() => go(direction === 'previous' ? current - 1 : current + 1)}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.5">
        <path d={direction === 'previous' ? 'M10 3 5 8l5 5' : 'm6 3 5 5-5 5'} />
      </svg>
    </button>
  );
  return (
    <>
      <ol
        ref={list}
        aria-labelledby="onboarding"
        tabIndex={scrollable ? 0 : undefined}
        className="mt-12 flex snap-x snap-mandatory gap-6 overflow-x-auto lg:grid lg:grid-cols-4 lg:overflow-visible"
      >
        {STEPS.map((step, index) => (
          <li key={step} className="w-full shrink-0 snap-start border border-line p-8 sm:w-[calc((100%-1.5rem)/2)] lg:w-auto">
            <p className="display text-5xl text-stone" aria-hidden="true">{index + 1}</p>
            <h3 className="mt-6 text-lg font-medium">{t(`onboarding.${step}.title`)}</h3>
            <p className="mt-3 leading-relaxed text-stone">{t(`onboarding.${step}.text`)}</p>
          </li>
        ))}
      </ol>
      {hydrated && scrollable && (
        <div className="mt-6 flex items-center justify-between lg:hidden">
          {arrow('previous')}
          <p className="text-sm tabular-nums text-stone">
            <span aria-hidden="true" data-testid="onboarding-position">{`${current + 1} / ${STEPS.length}`}</span>
            <span className="sr-only">{t('registration.step', { current: current + 1, total: STEPS.length })}</span>
          </p>
          {arrow('next')}
        </div>
      )}
    </>
  );
}
