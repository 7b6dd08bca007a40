import { data, redirect } from 'react-router';
import type { Route } from './+types/form-started';
import { PageIntro } from '../components/page-intro.tsx';
import { RegistrationForm } from '../components/registration-form.tsx';
import { localeContext } from '../lib/page/context.ts';
import { formCountry } from '../lib/i18n/country.ts';
import { namedCountries, serverCountry } from '../lib/i18n/country.server.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import type { RegistrationFlow } from '@velvet/validation/registration';
import type { RegistrationStep } from '@velvet/validation/registration-steps';
import { landingOptions } from '../lib/landing/landing-variants.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { apiFailureMessage, checkCode } from '../lib/registration/registration-code.server.ts';
import { deny, invitationFrom, referrerOf } from '../lib/registration/registration.server.ts';
import { handleRegistration } from '../lib/registration/register.server.ts';
import { readFlow, type RegistrationFlowState } from '../lib/session.server.ts';
import { useTrackOnce, useTrackStep } from '../lib/analytics/use-track.ts';
import { useT } from '../lib/page/use-root.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** The registration form: one step, or the lean flow (step=2 after the email step). */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const { prefix, locale } = context.get(localeContext);
  const url = new URL(request.url);
  const { flow, save } = await readFlow(request, context);
  const invitation = invitationFrom(url, flow);
  if (!invitation) throw redirect(localizedPath(prefix, '/'));
  // The form is a way in too (spec §4 arrival rule): a link to it from another site is an arrival.
  const { referrer, arrival } = referrerOf(args, flow, invitation);
  const [check, detected] = await Promise.all([
    checkCode({ code: invitation.code, validityTimestamp: invitation.validityTimestamp, slug: invitation.slug, referrer }, { request, context }),
    serverCountry(request, context),
  ]);
  const headers: HeadersInit = arrival ? { 'Set-Cookie': await save({ ...flow, arrival }) } : {};
  if (check.status === 'unavailable') return data({ state: 'unavailable' as const, notice: apiFailureMessage(check.error) }, { headers });
  if (check.status !== 'valid') throw await deny(args, check.refusal.reason, invitation, referrer);
  const flowValue = registrationFlowOf(invitation.slug, url.searchParams.get('step'), flow);
  const step: RegistrationStep = flowValue === 'leanStep2' ? 'lean-2' : flowValue === 'leanStep1' ? 'lean-1' : 'one-step';
  const countries = namedCountries(check.details.countryOptions, locale);
  const preferred = flow.registrationCountry ?? detected;
  const differentAddress = url.searchParams.get('email') === 'new';
  return data({
    state: 'ready' as const,
    registrationFlow: flowValue,
    step,
    inviterName: check.inviterName,
    // Lean step 2's text (spec §3 "leanRegistration step 2") names where the activation link goes.
    registrationEmail: step === 'lean-2' ? (flow.registrationEmail ?? '') : '',
    invitation: { code: invitation.code, validityTimestamp: invitation.validityTimestamp },
    countries,
    detectCountryInBrowser: !preferred,
    // What this visit typed before (a step back, another address after "pending"): nothing is lost.
    defaults: {
      country: formCountry(countries, preferred),
      email: differentAddress ? '' : (flow.registrationEmail ?? ''),
      newsletter: flow.registrationNewsLetter ? 'on' : '',
      termsAccepted: flow.registrationTermsAndConditions ? 'on' : '',
      gender: flow.registrationGender ?? '',
      firstName: flow.registrationFirstName ?? '',
      lastName: flow.registrationLastName ?? '',
    },
  }, { headers });
}

/**
 * The registration flow value of spec §3 this page shows: the campaign's, and `leanStep2`
 * when the lean flow's first step is in (the flow cookie says so) and step 2 is asked for.
 */
function registrationFlowOf(slug: string | null, stepParam: string | null, flow: RegistrationFlowState): RegistrationFlow {
  const entry = landingOptions(slug).registrationFlow;
  if (entry !== 'leanStep1') return entry === 'socialRegistration' ? 'default' : entry;
  return stepParam === '2' && flow.registrationFlow === 'leanStep2' && flow.registrationEmail ? 'leanStep2' : 'leanStep1';
}

export async function action(args: Route.ActionArgs) {
  return handleRegistration(args, await args.request.formData());
}

/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { kind: 'form' as const, result: undefined, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.formStarted.title', noIndex: true });

export default function FormStarted({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const step = loaderData.state === 'ready' ? loaderData.step : null;
  useTrackStep(step === 'lean-2' ? { event: 'email_submitted', flow: 'leanStep1', ...(loaderData.state === 'ready' && loaderData.defaults.email ? { emailHash: loaderData.defaults.email } : {}) } : null);
  useTrackOnce(step === 'lean-2' ? { event: 'step2_landed', flow: 'leanStep2' } : null);
  if (loaderData.state === 'unavailable') {
    return (
      <div>
        <PageIntro title={t('registration.title')} />
        <p role="alert" className="mt-8 border-l-2 border-alert pl-4">{t(loaderData.notice.id, loaderData.notice.values)}</p>
      </div>
    );
  }
  const notice = actionData && 'notice' in actionData ? actionData.notice : undefined;
  // The spec's own text variant of the registration page for the lean flow's second step (§3).
  const leanStep2 = loaderData.step === 'lean-2';
  return (
    <div>
      <PageIntro
        eyebrow={loaderData.inviterName ? t('registration.invitedBy', { inviterName: loaderData.inviterName }) : undefined}
        title={t(leanStep2 ? 'variant.leanRegistration.step2.headline' : 'registration.title')}
        lead={leanStep2 ? t('variant.leanRegistration.step2.text', { email: loaderData.registrationEmail }) : t('registration.lead')}
      />
      {loaderData.step !== 'one-step' && (
        <p className="eyebrow mt-8 text-stone">{t('registration.step', { current: loaderData.step === 'lean-1' ? 1 : 2, total: 2 })}</p>
      )}
      {notice && <p role="alert" className="mt-8 border-l-2 border-alert pl-4">{t(notice.id, notice.values)}</p>}
      <div className="mt-8">
        <RegistrationForm
          key={loaderData.step}
          step={loaderData.step}
          countries={loaderData.countries}
          defaults={loaderData.defaults}
          detectCountryInBrowser={loaderData.detectCountryInBrowser}
          invitation={loaderData.invitation}
          lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
          emailSuggestion={actionData && 'emailSuggestion' in actionData ? actionData.emailSuggestion : undefined}
        />
      </div>
    </div>
  );
}
