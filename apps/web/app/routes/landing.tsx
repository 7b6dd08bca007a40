import { parseWithZod } from '@conform-to/zod/v4';
import { accessCodeForm } from '@velvet/validation/registration-code';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Link, data, redirect, useSearchParams } from 'react-router';
import type { Route } from './+types/landing';
import { CodeForm } from '../components/code-form.tsx';
import { LandingSections } from '../components/landing-sections.tsx';
import { Modal } from '../components/modal.tsx';
import { SignupOptions } from '../components/signup-options.tsx';
import { localeContext } from '../lib/context.ts';
import { serverCountry } from '../lib/country.server.ts';
import { localizedPath, pagePath } from '../lib/i18n.ts';
import { landingOptions, variantTexts } from '../lib/landing-variants.ts';
import { pageMeta } from '../lib/meta.ts';
import { oidcSettings, SOCIAL_START_PATH } from '../lib/oidc.server.ts';
import { checkCode, verdictMessage, type CodeVerdict } from '../lib/registration-code.server.ts';
import { denyPath, handleProductShare, handleRegistration, invitationQuery, refusal, REGISTRATION_INTENTS } from '../lib/registration.server.ts';
import { useTrackOnce, useTrackStep } from '../lib/use-track.ts';
import { useLocalPath, useT } from '../lib/use-root.ts';
import { track, type ErrorEvent } from '../lib/analytics.ts';
import { LANDING_SLUGS } from '../screens.ts';

/** The popup variant's form, loaded when the visitor heads for it (./components/popup-registration.tsx). */
const loadPopupRegistration = () => import('../components/popup-registration.tsx');
const PopupRegistration = lazy(loadPopupRegistration);
/** The product-share variant's teaser and pop-up, only on that variant's pages. */
const ProductShare = lazy(() => import('../components/product-share.tsx').then((module) => ({ default: module.ProductShare })));

/** The tracked error event of a refused invitation (spec §8), if it has one. */
function verdictEvent(verdict: Exclude<CodeVerdict, { status: 'valid' }>): ErrorEvent['event'] | null {
  if (verdict.status === 'unavailable') return null;
  return (refusal(verdict).event as ErrorEvent['event'] | undefined) ?? null;
}

function assertKnownSlug(slug: string | undefined, request: Request) {
  if (slug !== undefined && !(LANDING_SLUGS as readonly string[]).includes(slug)) {
    throw data({ path: pagePath(new URL(request.url).pathname) }, { status: 404, statusText: 'Page Not Found' });
  }
}

/** The Referer of a visitor who arrived from another site, for the blocklist check. */
function externalReferrer(request: Request): string | null {
  const referrer = request.headers.get('referer');
  if (!referrer) return null;
  try {
    return new URL(referrer).host === new URL(request.url).host ? null : referrer;
  } catch {
    return null;
  }
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  assertKnownSlug(params.slug, request);
  const { prefix, locale } = context.get(localeContext);
  const url = new URL(request.url);
  const options = landingOptions(params.slug);
  // Back from a social sign-in that did not work (ADR 010).
  const socialFailed = url.searchParams.get('social') === 'failed';
  const rc = url.searchParams.get('rc')?.trim().toUpperCase();
  if (!rc) return { options, socialFailed, invitation: null };
  const invitation = { code: rc, validityTimestamp: url.searchParams.get('validityTimestamp'), slug: params.slug ?? null };
  const referrer = externalReferrer(request);
  const [verdict, detected] = await Promise.all([
    checkCode({ ...invitation, referrer }, { request, context }),
    options.registrationFormFinishedInPopup ? serverCountry(request, context) : Promise.resolve(undefined),
  ]);
  if (verdict.status === 'referrer') {
    const params = new URLSearchParams({ reason: 'referrer', rc, from: referrer ? new URL(referrer).host : '' });
    throw redirect(localizedPath(prefix, '/registration/deny', params.toString()));
  }
  if (verdict.status !== 'valid') {
    return {
      options,
      socialFailed,
      invitation: { ...invitation, valid: false as const, notice: verdictMessage(verdict), errorEvent: verdictEvent(verdict) },
    };
  }
  const countries = verdict.details.countryOptions;
  const oidc = oidcSettings();
  return {
    options,
    socialFailed,
    invitation: {
      ...invitation,
      valid: true as const,
      invitorName: verdict.invitorName,
      customization: verdict.customization,
      query: invitationQuery(invitation),
      comingSoon: url.searchParams.has('signup'),
      finished: url.searchParams.get('finished') === '1',
      countries,
      defaultCountry: countries.some((c) => c.isoCode === detected) ? (detected as string) : 'DE',
      detectCountryInBrowser: !detected,
      social: oidc
        ? {
            button: oidc.button,
            href: `${SOCIAL_START_PATH}?${invitationQuery(invitation, { lang: locale })}`,
            primary: options.registrationFlow === 'socialRegistration',
          }
        : null,
    },
  };
}

export async function action(args: Route.ActionArgs) {
  const { request, params, context } = args;
  assertKnownSlug(params.slug, request);
  const formData = await request.formData();
  if (formData.get('intent') === 'product-share') {
    return { code: null, registration: null, productShare: await handleProductShare(args, formData, params.slug ?? null) };
  }
  if ((REGISTRATION_INTENTS as readonly string[]).includes(String(formData.get('intent')))) {
    return { code: null, productShare: null, registration: await handleRegistration(args, formData, { popup: true, slug: params.slug ?? null }) };
  }
  const submission = parseWithZod(formData, { schema: accessCodeForm });
  const sent = String(formData.get('code') ?? '').slice(0, 100);
  if (submission.status !== 'success') {
    return { code: { result: { errors: submission.error?.code ?? [], value: sent }, notice: undefined }, registration: null, productShare: null };
  }
  const verdict = await checkCode({ code: submission.value.code, slug: params.slug ?? null }, { request, context });
  const { prefix } = context.get(localeContext);
  if (verdict.status === 'valid') {
    const code = submission.value.code.toUpperCase();
    throw redirect(localizedPath(prefix, params.slug ? `/${params.slug}` : '/', `rc=${encodeURIComponent(code)}`), 303);
  }
  if (verdict.status === 'invalid') {
    return { code: { result: { errors: ['validation.accessCodeInvalid'], value: sent }, notice: undefined }, registration: null, productShare: null };
  }
  if (verdict.status === 'referrer') throw redirect(denyPath(prefix, 'referrer'));
  return { code: { result: { errors: [], value: sent }, notice: verdictMessage(verdict), errorEvent: verdictEvent(verdict) }, registration: null, productShare: null };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.landing.title', description: 'meta.landing.description' });

export default function Landing({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const intl = useIntl();
  const path = useLocalPath();
  const [, setSearchParams] = useSearchParams();
  const { invitation, options } = loaderData;
  const valid = invitation?.valid ? invitation : null;
  const productShareResult = actionData?.productShare ?? null;
  const registrationResult = actionData?.registration?.kind === 'form' ? actionData.registration : null;
  const [formOpen, setFormOpen] = useState(Boolean(registrationResult));
  // Once opened, the popup form stays mounted (closed), so what was typed survives a close.
  const [popupMounted, setPopupMounted] = useState(Boolean(registrationResult));
  // Registered: the form gives way to "check your inbox" (and is cleared for a next time).
  const finished = Boolean(valid?.finished);
  useEffect(() => {
    if (!finished) return;
    setFormOpen(false);
    setPopupMounted(false);
  }, [finished]);
  const openPopup = () => {
    setPopupMounted(true);
    setFormOpen(true);
  };
  const trackLanding = useTrackOnce({ event: 'landing', variant: valid?.customization ?? 'default', hasCode: Boolean(invitation) });
  // Spec §8's tracked error events, where the visitor meets the refusal.
  const errorEvent = (invitation && !invitation.valid ? invitation.errorEvent : null) ?? (actionData?.code && 'errorEvent' in actionData.code ? actionData.code.errorEvent : null);
  useTrackOnce(errorEvent ? { event: errorEvent } : null);
  // The pop-up form counts its submission itself; a submission posted before the scripts ran lands here.
  useTrackStep(finished ? { event: 'email_submitted', flow: 'default' } : null);

  const texts = variantTexts(valid?.customization);
  const money = (euros: number) => intl.formatNumber(euros, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
  const values = {
    invitorName: valid?.invitorName ?? '',
    percent: texts.voucher?.percent ?? 10,
    minimum: texts.voucher?.minimumOrderValue ? money(texts.voucher.minimumOrderValue) : '',
  };
  const headline = valid ? (valid.invitorName ? t(texts.headline, values) : t('variant.noInviter.headline')) : t('landing.hero.title');
  const lead = valid ? t(texts.text, values) : t('landing.hero.text');
  const formHref = valid ? path('/registration/formstarted', valid.query) : '#';
  const centered = options.layout !== 'right-double-column';

  return (
    <>
      <section className="inclined-lines bg-ink text-paper" aria-labelledby="hero-title">
        <div className={`mx-auto grid max-w-6xl gap-12 px-6 py-16 sm:py-24 ${centered ? 'max-w-2xl text-center' : 'lg:grid-cols-[1.25fr_1fr] lg:items-center'}`}>
          <div>
            <p className="eyebrow text-paper/70">{t('landing.hero.eyebrow')}</p>
            <h1 id="hero-title" className="display mt-5 text-5xl sm:text-7xl">{headline}</h1>
            <p className={`mt-8 text-lg leading-relaxed text-paper/85 ${centered ? 'mx-auto max-w-xl' : 'max-w-xl'}`}>{lead}</p>
          </div>
          <div className="bg-paper p-8 text-left text-ink shadow-2xl sm:p-10" id="code">
            {loaderData.socialFailed && (
              <p role="alert" className="mb-6 border-l-2 border-alert pl-4">{t('socialSecondStep.failed')}</p>
            )}
            {valid ? (
              <>
                <h2 className="display text-3xl sm:text-4xl">{t('signup.title')}</h2>
                <p className="mt-3 text-stone">{t('landing.code.accepted')}</p>
                <div className="mt-6">
                  <SignupOptions
                    emailHref={formHref}
                    onEmail={options.registrationFormFinishedInPopup ? openPopup : undefined}
                    onEmailIntent={options.registrationFormFinishedInPopup ? () => void loadPopupRegistration() : undefined}
                    hidden={Object.fromEntries(new URLSearchParams(valid.query))}
                    comingSoon={valid.comingSoon}
                    social={valid.social}
                  />
                </div>
              </>
            ) : (
              <>
                <h2 className="display text-3xl sm:text-4xl">{t('landing.code.title')}</h2>
                <p className="mt-3 text-stone">{t('landing.code.text')}</p>
                <div className="mt-6">
                  <CodeForm
                    result={actionData?.code?.result}
                    notice={actionData?.code ? actionData.code.notice : invitation && !invitation.valid ? invitation.notice : undefined}
                    onFirstInput={() => {
                      trackLanding();
                      track({ event: 'code_entered' });
                    }}
                    onSubmit={() => {
                      trackLanding();
                      track({ event: 'code_submitted' });
                    }}
                  />
                </div>
              </>
            )}
            <p className="mt-8 border-t border-line pt-6 text-sm text-stone">
              {t('landing.noCode.title')}{' '}
              <Link className="link text-ink" to={path('/membership-interest')}>{t('landing.noCode.cta')}</Link>
            </p>
          </div>
        </div>
      </section>
      {valid && options.registrationFormFinishedInPopup && (
        <>
          {(popupMounted || registrationResult) && (
            <Suspense fallback={null}>
              <PopupRegistration
                open={formOpen}
                onClose={() => setFormOpen(false)}
                countries={valid.countries}
                defaultCountry={valid.defaultCountry}
                detectCountryInBrowser={valid.detectCountryInBrowser}
                result={registrationResult}
              />
            </Suspense>
          )}
          <Modal
            open={valid.finished}
            onClose={() => setSearchParams((prev) => {
              prev.delete('finished');
              return prev;
            }, { preventScrollReset: true, replace: true })}
            labelledBy="popup-finished-title"
          >
            <h2 id="popup-finished-title" className="display text-3xl">{t('formFinished.popupTitle')}</h2>
            <p className="mt-4 text-lg text-stone">{t('formFinished.text')}</p>
          </Modal>
        </>
      )}
      {valid && options.previousPDPPage && (
        <Suspense fallback={null}>
          <ProductShare invitorName={valid.invitorName} lastResult={productShareResult?.result} />
        </Suspense>
      )}
      <LandingSections />
    </>
  );
}
