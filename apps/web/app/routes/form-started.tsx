import { redirect } from 'react-router';
import type { Route } from './+types/form-started';
import { PageIntro } from '../components/page-intro.tsx';
import { RegistrationForm, type RegistrationStep } from '../components/registration-form.tsx';
import { localeContext } from '../lib/context.ts';
import { serverCountry } from '../lib/country.server.ts';
import { localizedPath } from '../lib/i18n.ts';
import { landingOptions } from '../lib/landing-variants.ts';
import { pageMeta } from '../lib/meta.ts';
import { apiFailureMessage, checkCode } from '../lib/registration-code.server.ts';
import { denyPath, handleRegistration, invitationFrom, refusal } from '../lib/registration.server.ts';
import { readFlow } from '../lib/session.server.ts';
import { useTrackOnce, useTrackStep } from '../lib/use-track.ts';
import { useT } from '../lib/use-root.ts';

/** The registration form: one step, or the lean flow (step=2 after the email step). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { prefix } = context.get(localeContext);
  const url = new URL(request.url);
  const { flow } = await readFlow(request, context);
  const invitation = invitationFrom(url, flow);
  if (!invitation) throw redirect(localizedPath(prefix, '/'));
  const [check, detected] = await Promise.all([
    checkCode({ code: invitation.code, validityTimestamp: invitation.validityTimestamp, slug: invitation.slug }, { request, context }),
    serverCountry(request, context),
  ]);
  if (check.status === 'unavailable') return { state: 'unavailable' as const, notice: apiFailureMessage(check.error) };
  if (check.status !== 'valid') throw redirect(denyPath(prefix, refusal(check).reason, invitation));
  const lean = landingOptions(invitation.slug).registrationFlow === 'leanStep1';
  const step: RegistrationStep = !lean ? 'one-step' : url.searchParams.get('step') === '2' && flow.registrationEmail ? 'lean-2' : 'lean-1';
  const countries = check.details.countryOptions;
  const preferred = flow.registrationCountry ?? detected;
  const differentAddress = url.searchParams.get('email') === 'new';
  return {
    state: 'ready' as const,
    step,
    invitorName: check.invitorName,
    countries,
    detectCountryInBrowser: !preferred,
    defaults: {
      country: countries.some((c) => c.isoCode === preferred) ? preferred : 'DE',
      email: differentAddress ? '' : (flow.registrationEmail ?? ''),
      newsletter: flow.registrationNewsLetter ? 'on' : '',
    },
  };
}

export async function action(args: Route.ActionArgs) {
  return handleRegistration(args, await args.request.formData());
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.formStarted.title', noIndex: true });

export default function FormStarted({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const step = loaderData.state === 'ready' ? loaderData.step : null;
  useTrackStep(step === 'lean-2' ? { event: 'email_submitted', flow: 'lean', ...(loaderData.state === 'ready' && loaderData.defaults.email ? { emailHash: loaderData.defaults.email } : {}) } : null);
  useTrackOnce(step === 'lean-2' ? { event: 'step2_landed' } : null);
  if (loaderData.state === 'unavailable') {
    return (
      <div>
        <PageIntro title={t('registration.title')} />
        <p role="alert" className="mt-8 border-l-2 border-alert pl-4">{t(loaderData.notice.id, loaderData.notice.values)}</p>
      </div>
    );
  }
  const notice = actionData && 'notice' in actionData ? actionData.notice : undefined;
  return (
    <div>
      <PageIntro
        eyebrow={loaderData.invitorName ? t('registration.invitedBy', { invitorName: loaderData.invitorName }) : undefined}
        title={t('registration.title')}
        lead={t('registration.lead')}
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
          lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
        />
      </div>
    </div>
  );
}
