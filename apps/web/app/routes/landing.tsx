import { INVITATION_PARAMS, readInvitation } from '@velvet/validation/links';
import { isRegistrationStep } from '@velvet/validation/registration-steps';
import { refusalMessage } from '@velvet/validation/registration-code';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, data, useLocation, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/landing';
import { CodeForm, CodeRefusal } from '../components/code-form.tsx';
import { LandingSections } from '../components/landing-sections.tsx';
import { Modal } from '../components/modal.tsx';
import { SignupOptions } from '../components/signup-options.tsx';
import { localeContext } from '../lib/page/context.ts';
import { formCountry } from '../lib/i18n/country.ts';
import { namedCountries, serverCountry } from '../lib/i18n/country.server.ts';
import { readablePath, splitLocalePath } from '../lib/i18n/i18n.ts';
import { customizationTexts, voucherFor } from '@velvet/validation/customization';
import { landingNumbers } from '../lib/landing/landing-numbers.server.ts';
import { landingOptions, sourcePathFrom, type LandingLayout, type LandingPageOptions } from '../lib/landing/landing-variants.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { oidcSettings, SOCIAL_START_PATH } from '../lib/registration/oidc.server.ts';
import { handleProductShare } from '../lib/landing/product-share.server.ts';
import { checkTypedCode } from '../lib/landing/typed-code.server.ts';
import { joinWaitlist } from '../lib/landing/waitlist.server.ts';
import { handleRegistration } from '../lib/registration/register.server.ts';
import { apiFailureMessage, checkCode } from '../lib/registration/registration-code.server.ts';
import { deny, invitationQuery, referrerOf } from '../lib/registration/registration.server.ts';
import { readFlow, type RegistrationFlowState } from '../lib/session.server.ts';
import { useTrackOnce, useTrackStep } from '../lib/analytics/use-track.ts';
import { useWebView } from '../lib/web-view/use-web-view.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { track } from '../lib/analytics/analytics.ts';
import { pageCatalogReady } from '../lib/i18n/messages.ts';
import { LANDING_SLUGS } from '../screens.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** The popup variant's form, loaded when the visitor heads for it (./components/popup-registration.tsx). */
const loadPopupRegistration = () => import('../components/popup-registration.tsx');
// Lazy parts render with the language's whole catalog, fetched with them (ADR 038).
const PopupRegistration = lazy(() => Promise.all([loadPopupRegistration(), pageCatalogReady()]).then(([module]) => module));
/** The product-share variant's teaser and pop-up, only on that variant's pages. */
const ProductShare = lazy(() =>
  Promise.all([import('../components/product-share.tsx'), pageCatalogReady()]).then(([module]) => ({ default: module.ProductShare })),
);

/**
 * The hero in each landing layout (spec §2): the invitation beside the card, above it and
 * centred, or an app screen — the invitation on top, the sign-up sheet edge to edge below it,
 * in the phone-width frame the default layout draws (ADR 024).
 */
const HERO: Record<LandingLayout, { grid: string; text: string; lead: string; card: string }> = {
  'right-double-column': {
    grid: 'max-w-6xl gap-12 px-6 py-16 sm:py-24 lg:grid-cols-[1.25fr_1fr] lg:items-center',
    text: '',
    lead: 'max-w-xl',
    card: 'p-6 shadow-2xl sm:p-10',
  },
  'center-single-column': { grid: 'max-w-2xl gap-12 px-6 py-16 text-center sm:py-24', text: '', lead: 'mx-auto max-w-xl', card: 'p-6 shadow-2xl sm:p-10' },
  'only-mobile': { grid: 'gap-10 pt-12', text: 'px-6', lead: '', card: 'px-6 py-10' },
};

/**
 * The route's check (spec §2): `/{slug}` is a campaign the club runs, or a 404 "Page Not
 * Found: {path}" (shown in the site's frame by the layout's error boundary). Read from the
 * address after its language: the route's `:lang?/:slug?` cannot tell `/vip` from `/de` (ADR 059).
 */
function knownSlug(request: Request): string | null {
  const { pathname } = new URL(request.url);
  const slug = splitLocalePath(pathname).rest.replace(/^\/|\/$/g, '');
  if (slug === '') return null;
  if (!(LANDING_SLUGS as readonly string[]).includes(slug)) {
    throw data({ path: readablePath(pathname) }, { status: 404, statusText: 'Page Not Found' });
  }
  return slug;
}

export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const slug = knownSlug(request);
  const { locale } = context.get(localeContext);
  const url = new URL(request.url);
  const options = landingOptions(slug);
  const { flow, save } = await readFlow(request, context);
  // The shop page the visitor came from (spec §3 sourcePath): kept for "Shop now" after registering.
  const arrivedFrom = sourcePathFrom(url.searchParams.get('sourcePath'));
  const sourcePath = arrivedFrom ?? flow.sourcePath ?? null;
  // Back from a social sign-in that did not work (ADR 010).
  const socialFailed = url.searchParams.get('social') === 'failed';
  const link = readInvitation(url.searchParams);
  /** The page's data, with the flow cookie when this visit brought something to keep. */
  const reply = async <T extends object>(body: T, arrival?: RegistrationFlowState['arrival']) => {
    const keep = { ...(arrival ? { arrival } : {}), ...(arrivedFrom && arrivedFrom !== flow.sourcePath ? { sourcePath: arrivedFrom } : {}) };
    if (Object.keys(keep).length === 0) return data(body);
    return data(body, { headers: { 'Set-Cookie': await save({ ...flow, ...keep }) } });
  };
  // The page's numbers in its language, for an invitation's voucher (ADR 068: formatted here, not in the browser).
  const numbers = (customization?: string | null) => landingNumbers(locale, voucherFor(customization).minimumOrderValue);
  if (!link) return reply({ options, sourcePath, socialFailed, numbers: numbers(), invitation: null });
  const invitation = { code: link.code, validityTimestamp: link.validityTimestamp, slug };
  // The arrival rule (spec §4): the referrer this invitation arrived with.
  const { referrer, arrival } = referrerOf(args, flow, invitation);
  // Without a referrer the check is the same for every visitor of this address, and so is the
  // page (ADR 053): a cache may share it for a few seconds. A referrer is this visitor's own.
  const [check, detected] = await Promise.all([
    checkCode({ ...invitation, referrer }, { request, context, shared: referrer === null }),
    options.registrationFormFinishedInPopup ? serverCountry(request, context) : Promise.resolve(undefined),
  ]);
  if (check.status === 'refused' && check.refusal.reason === 'referrer') throw await deny(args, 'referrer', invitation, referrer);
  if (check.status !== 'valid') {
    return reply(
      {
        options,
        sourcePath,
        socialFailed,
        numbers: numbers(),
        invitation: {
          ...invitation,
          valid: false as const,
          // Refused (not an outage): the page offers the ways on with the message.
          refused: check.status === 'refused',
          notice: check.status === 'refused' ? refusalMessage(check.refusal, 'link', check.inviterName) : apiFailureMessage(check.error),
          errorEvent: check.status === 'refused' ? check.refusal.event : null,
        },
      },
      arrival,
    );
  }
  const countries = namedCountries(check.details.countryOptions, locale);
  const oidc = oidcSettings();
  return reply(
    {
      options,
      sourcePath,
      socialFailed,
      numbers: numbers(check.customization),
      invitation: {
        ...invitation,
        valid: true as const,
        inviterName: check.inviterName,
        customization: check.customization,
        // A quarantined code (ADR 043, 054): say what the registration will say, not "valid".
        heldForReview: check.details.heldForReview,
        query: invitationQuery(invitation),
        // "Check your inbox" only after this visitor's registration (not for a hand-made ?finished=1).
        finished: url.searchParams.get('finished') === '1' && flow.registrationOutcome === 'FORM_FINISHED',
        countries,
        defaultCountry: formCountry(countries, detected),
        detectCountryInBrowser: !detected,
        social: oidc
          ? {
              button: oidc.button,
              href: `${SOCIAL_START_PATH}?${invitationQuery(invitation, { lang: locale })}`,
              primary: options.registrationFlow === 'socialRegistration',
            }
          : null,
      },
    },
    arrival,
  );
}

/**
 * The page's forms, one handler each, chosen by the posted intent: the product share's email,
 * the waiting list's email, a registration step of the pop-up, and (any other intent) the code form.
 */
export async function action(args: Route.ActionArgs) {
  const slug = knownSlug(args.request);
  const formData = await args.request.formData();
  const intent = formData.get('intent');
  if (intent === 'product-share') {
    return { code: null, registration: null, productShare: await handleProductShare(args, formData, slug) };
  }
  if (intent === 'waitlist') return { code: null, registration: null, productShare: null, waitlist: await joinWaitlist(args, formData) };
  if (isRegistrationStep(intent)) {
    return { code: null, productShare: null, registration: await handleRegistration(args, formData, { popup: true, slug }) };
  }
  return { code: await checkTypedCode(args, formData, slug), registration: null, productShare: null };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.landing.title', description: 'meta.landing.description' });

/**
 * The visitor's connection lost one of the page's forms on its way: the page stays, as typed,
 * and that form says so (lib/forms/connection.ts).
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Read before the form goes: its body is the server action's then.
  const posted = await request.clone().formData();
  const answer = await sentOrLost(serverAction);
  if (answer) return answer;
  const postedValue = (name: string) => String(posted.get(name) ?? '').slice(0, 300);
  const intent = postedValue('intent');
  // An empty result: Conform keeps the fields as they are.
  const lost = { kind: 'form' as const, result: {}, notice: CONNECTION_LOST };
  if (intent === 'product-share') return { code: null, registration: null, productShare: lost, ...LOST };
  if (intent === 'waitlist') {
    return { code: null, registration: null, productShare: null, waitlist: { errors: [], value: postedValue('email'), notice: CONNECTION_LOST }, ...LOST };
  }
  if (isRegistrationStep(intent)) return { code: null, productShare: null, registration: lost, ...LOST };
  return { code: { result: { errors: [], value: postedValue('code') }, notice: CONNECTION_LOST, errorEvent: null }, registration: null, productShare: null, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export default function Landing({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const path = useLocalPath();
  const [, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const location = useLocation();
  const webView = useWebView();
  const { invitation } = loaderData;
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
  // The pop-up's own chunk is on its way (it loads when the visitor heads for it).
  const [popupLoading, setPopupLoading] = useState(false);
  const openPopup = () => {
    setPopupMounted(true);
    setFormOpen(true);
    setPopupLoading(true);
    void loadPopupRegistration().finally(() => setPopupLoading(false));
  };
  // The code check: the code form on its way, or this page loading an invitation.
  const checkingCode =
    navigation.state !== 'idle' &&
    (navigation.formData?.get('intent') === 'code' ||
      (!navigation.formData && navigation.location.pathname === location.pathname && new URLSearchParams(navigation.location.search).has(INVITATION_PARAMS.code)));
  /** The landing page options of spec §3, as this page holds them. */
  const options: LandingPageOptions = {
    ...loaderData.options,
    sourcePath: loaderData.sourcePath,
    isLandingPageLoading: checkingCode || popupLoading,
    isWebView: webView.active,
  };
  const trackLanding = useTrackOnce({ event: 'landing', variant: valid?.customization ?? 'default', hasCode: Boolean(invitation) });
  // Spec §8's tracked error events, where the visitor meets the refusal.
  const errorEvent = (invitation && !invitation.valid ? invitation.errorEvent : null) ?? (actionData?.code && 'errorEvent' in actionData.code ? actionData.code.errorEvent : null);
  useTrackOnce(errorEvent ? { event: errorEvent } : null);
  // The pop-up form counts its submission itself; a submission posted before the scripts ran lands here.
  useTrackStep(finished ? { event: 'email_submitted', flow: 'default' } : null);
  // "Check your inbox" is the pop-up's welcome page (spec §4): after the email, before activation.
  useTrackStep(finished ? { event: 'welcome_landed' } : null);

  const texts = customizationTexts(valid?.customization);
  const voucher = voucherFor(valid?.customization);
  const values = { inviterName: valid?.inviterName ?? '', percent: voucher.percent, minimum: loaderData.numbers.minimumOrder };
  const headline = valid ? (valid.inviterName ? t(texts.headline, values) : t('variant.noInviter.headline')) : t('landing.hero.title');
  const lead = valid ? t(texts.text, values) : t('landing.hero.text');
  const formHref = valid ? path('/registration/formstarted', valid.query) : '#';
  const hero = HERO[options.layout];
  // A link's code that cannot be used: said first, above the hero (on a phone, the first screen),
  // until the visitor sends a code of their own; the field keeps the link's code.
  const linkRefusal = invitation && !invitation.valid && !actionData?.code ? invitation : null;
  const typedCode = actionData?.code;

  return (
    <>
      <section className="inclined-lines bg-ink text-paper" aria-labelledby="hero-title">
        <div className={`mx-auto grid ${hero.grid}`} data-layout={options.layout}>
          {linkRefusal && (
            <CodeRefusal notice={linkRefusal.notice} refused={linkRefusal.refused} onArrival className={`col-span-full bg-paper py-5 pr-5 text-left text-ink ${hero.text ? 'mx-6' : ''}`} />
          )}
          <div className={hero.text}>
            <p className="eyebrow text-paper/70">{t('landing.hero.eyebrow')}</p>
            <h1 id="hero-title" className="display mt-5 text-5xl sm:text-7xl">{headline}</h1>
            <p className={`mt-8 text-lg leading-relaxed text-paper/85 ${hero.lead}`}>{lead}</p>
          </div>
          <div className={`relative bg-paper text-left text-ink ${hero.card}`} id="code" aria-busy={options.isLandingPageLoading}>
            <LoadingIndicator loading={options.isLandingPageLoading} label={t(checkingCode ? 'landing.loading.code' : 'landing.loading.form')} />
            {loaderData.socialFailed && (
              <p role="alert" className="mb-6 border-l-2 border-alert pl-4">{t('socialSecondStep.failed')}</p>
            )}
            {valid ? (
              <>
                <h2 className="display text-3xl sm:text-4xl">{t('signup.title')}</h2>
                {valid.heldForReview ? (
                  <p className="mt-3 border-l-2 border-alert pl-4 text-stone" data-testid="invitation-under-review">
                    {t('landing.code.review')}{' '}
                    <Link className="link text-ink" to={path('/membership-interest/apply')}>{t('formFinished.review.apply')}</Link>
                  </p>
                ) : (
                  <p className="mt-3 text-stone">{t('landing.code.accepted')}</p>
                )}
                <div className="mt-6">
                  <SignupOptions
                    emailHref={formHref}
                    onEmail={options.registrationFormFinishedInPopup ? openPopup : undefined}
                    onEmailIntent={options.registrationFormFinishedInPopup ? () => void loadPopupRegistration() : undefined}
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
                    result={typedCode?.result}
                    defaultCode={invitation?.code}
                    notice={typedCode?.notice}
                    refused={Boolean(typedCode && 'refused' in typedCode && typedCode.refused)}
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
                invitation={{ code: valid.code, validityTimestamp: valid.validityTimestamp }}
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
          <ProductShare inviterName={valid.inviterName} lastResult={productShareResult?.result} />
        </Suspense>
      )}
      <LandingSections
        voucher={voucher}
        numbers={loaderData.numbers}
        // The waiting list is a way on for visitors without a usable code, not a second call to action beside a valid invitation (UX review of 27 Nov, row 17).
        showWaitlist={!valid}
        waitlist={actionData && 'waitlist' in actionData ? actionData.waitlist : undefined}
      />
    </>
  );
}

/**
 * isLandingPageLoading, shown: a bar along the panel's top edge and a status for screen
 * readers. Both keep their place when idle, so nothing on the page moves.
 */
function LoadingIndicator({ loading, label }: { loading: boolean; label: string }) {
  return (
    <>
      <div className="pointer-events-none absolute inset-x-0 top-0 h-1 overflow-hidden" aria-hidden="true" data-testid="landing-loading">
        {loading && <div className="h-full w-1/3 animate-indeterminate bg-ink motion-reduce:w-full motion-reduce:animate-pulse" />}
      </div>
      <p role="status" className="sr-only" data-testid="landing-loading-status">{loading ? label : ''}</p>
    </>
  );
}
