import { AbTested, useFeatureValue } from '../lib/experiments/experiments.tsx';
import { useT } from '../lib/page/use-root.ts';

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
        <ol className="mt-12 flex snap-x gap-6 overflow-x-auto pb-4 lg:grid lg:grid-cols-4 lg:overflow-visible">
          {STEPS.map((step, index) => (
            <li key={step} className="min-w-64 snap-start border border-line p-8">
              <p className="display text-5xl text-stone" aria-hidden="true">{index + 1}</p>
              <h3 className="mt-6 text-lg font-medium">{t(`onboarding.${step}.title`)}</h3>
              <p className="mt-3 leading-relaxed text-stone">{t(`onboarding.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
