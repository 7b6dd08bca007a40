import { getCollectionProps, getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '../lib/forms/submission.server.ts';
import { verifySocialToken, type SocialClaims } from '@velvet/tokens/signed-token';
import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/social-registration-second-step';
import { describedBy, FieldErrors } from '../components/field.tsx';
import { PageIntro } from '../components/page-intro.tsx';
import { ConsentFields, CountryField, GenderField, NameFields, useCountryChoice, type CountryOption } from '../components/registration-form.tsx';
import { Welcome } from '../components/welcome.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { authCookie } from '../lib/auth-cookie.server.ts';
import { localeContext, requestInfoContext } from '../lib/page/context.ts';
import { formCountry } from '../lib/i18n/country.ts';
import { namedCountries, serverCountry } from '../lib/i18n/country.server.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { postedLegalVersions } from '../lib/registration/legal-versions.ts';
import { completeSocialRegistration, type CompleteSocialRegistrationInput } from '../lib/api/operations.ts';
import { apiFailureMessage, checkCode, type Notice } from '../lib/registration/registration-code.server.ts';
import { deny, denyPath, denyRefusedCode, invitationFrom, referrerOf, type Invitation } from '../lib/registration/registration.server.ts';
import { groupFieldErrors, redirectToOutcomePage } from '../lib/registration/registration-outcome.server.ts';
import { isScriptedSubmission } from '../lib/forms/form-guard.server.ts';
import { shownEmail } from '../lib/forms/shown-email.server.ts';
import { FormGuard } from '../components/form-guard.tsx';
import { readFlow, type RegistrationFlowState } from '../lib/session.server.ts';
import { socialSecondStepForm, type AskedNames } from '@velvet/validation/registration';
import { SHOPPING_PREFERENCES } from '@velvet/validation/registration-options';
import { codeErrorsIn, refusesToken } from '@velvet/validation/user-errors';
import { useTrackOnce, useTrackStep } from '../lib/analytics/use-track.ts';
import { useT } from '../lib/page/use-root.ts';
import { trackStep } from '../lib/analytics/analytics.ts';
import { clientValidation, loadClientValidation } from '../lib/forms/client-validation.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/**
 * The social sign-up's second step (spec §2, §5): reached from the provider's callback with a
 * signed token whose payload carries the email. Asks for what the provider did not give,
 * the country with its legal documents, consent and shopping preferences, then completes the
 * registration (docs/decisions/010-social-sign-up-oidc.md).
 */

type Args = Route.LoaderArgs | Route.ActionArgs;

/** The verified token, or a redirect to the deny page (spec §5: no token, no email → deny). */
async function verifiedToken(token: string | null, { context }: Args): Promise<SocialClaims> {
  const verified = await verifySocialToken(token, context.get(requestInfoContext).appSecret);
  if (!verified.ok) throw redirect(denyPath(context.get(localeContext).prefix, 'sign-in'));
  return verified.claims;
}

/**
 * The invitation the callback kept in the flow cookie (or the URL, when it carries one), and
 * the referrer it arrived with (the arrival rule of spec §4 guards this step too).
 */
async function invitationOf(args: Args): Promise<{ invitation: Invitation; referrer: string | null; flow: RegistrationFlowState }> {
  const { request, context } = args;
  const { flow } = await readFlow(request, context);
  const invitation = invitationFrom(new URL(request.url), flow);
  if (!invitation) throw redirect(denyPath(context.get(localeContext).prefix, 'invalid'));
  return { invitation, referrer: referrerOf(args, flow, invitation).referrer, flow };
}

/** The names to ask for: those the provider did not give in a form the registration accepts. */
function askedNames(claims: SocialClaims): AskedNames {
  return { firstName: !claims.firstName, lastName: !claims.lastName };
}

export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const token = new URL(request.url).searchParams.get('token');
  const claims = await verifiedToken(token, args);
  const { invitation, referrer } = await invitationOf(args);
  const [check, detected] = await Promise.all([
    checkCode({ code: invitation.code, validityTimestamp: invitation.validityTimestamp, slug: invitation.slug, referrer }, { request, context }),
    serverCountry(request, context),
  ]);
  if (check.status === 'unavailable') return { state: 'unavailable' as const, email: shownEmail(claims.email), notice: apiFailureMessage(check.error) };
  if (check.status !== 'valid') throw await deny(args, check.refusal.reason, invitation, referrer);
  const countries = namedCountries(check.details.countryOptions, context.get(localeContext).locale);
  return {
    state: 'ready' as const,
    token: token ?? '',
    email: shownEmail(claims.email),
    inviterName: check.inviterName,
    ask: askedNames(claims),
    countries,
    detectCountryInBrowser: !detected,
    defaults: { country: formCountry(countries, detected) },
  };
}

/** Fields the form shows; an API error about any other field is shown above the form. */
function shownField(field: string, ask: AskedNames): string | null {
  if (field === 'termsPkString' || field === 'dataPolicyPkString') return 'termsAccepted';
  if (['gender', 'country', 'newsletter', 'termsAccepted', 'shoppingPreferences'].includes(field)) return field;
  if ((field === 'firstName' && ask.firstName) || (field === 'lastName' && ask.lastName)) return field;
  return null;
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { prefix, locale } = context.get(localeContext);
  const formData = await request.formData();
  const token = String(formData.get('token') ?? '');
  const claims = await verifiedToken(token, args);
  const { invitation, referrer, flow } = await invitationOf(args);
  const ask = askedNames(claims);
  if (isScriptedSubmission(formData, context)) {
    // A script (honeypot, too fast): "check your inbox", as a person would read, and no call (ADR 041).
    const { save } = await readFlow(request, context);
    const cookie = await save({ ...flow, registrationEmail: claims.email, memberId: undefined, registrationOutcome: 'FORM_FINISHED' });
    redirectToOutcomePage('FORM_FINISHED', prefix, { 'Set-Cookie': cookie });
  }
  const submission = parseWithZod(formData, { schema: socialSecondStepForm(ask) });
  const reply = (options: { fieldErrors?: Record<string, string[]>; formErrors?: string[]; notice?: Notice } = {}) => ({
    kind: 'form' as const,
    result: submission.reply(options.fieldErrors || options.formErrors ? { fieldErrors: options.fieldErrors ?? {}, formErrors: options.formErrors ?? [] } : undefined),
    notice: options.notice,
  });
  if (submission.status !== 'success') return reply();
  const value = submission.value;

  // The versions this page showed for the chosen country: completeSocialRegistration checks them and the code.
  const shown = postedLegalVersions(formData, value.country);

  const input: CompleteSocialRegistrationInput = {
    token,
    registrationCode: invitation.code,
    validityTimestamp: invitation.validityTimestamp,
    slug: invitation.slug,
    referrer,
    gender: value.gender,
    firstName: value.firstName ?? claims.firstName ?? null,
    lastName: value.lastName ?? claims.lastName ?? null,
    country: value.country,
    newsletter: value.newsletter,
    termsAccepted: true,
    termsPkString: shown?.termsPkString ?? '',
    dataPolicyPkString: shown?.dataPolicyPkString ?? '',
    language: locale,
    shoppingPreferences: value.shoppingPreferences,
  };
  const result = await callApi(completeSocialRegistration, { input }, { request, context });
  if (!result.ok) return reply({ notice: apiFailureMessage(result.error) });
  const payload = result.data.completeSocialRegistration;
  if (refusesToken(payload.userErrors)) throw redirect(denyPath(prefix, 'sign-in'));
  await denyRefusedCode(args, codeErrorsIn(payload.userErrors), invitation, referrer, claims.email);
  if (!payload.outcome) {
    const refused = groupFieldErrors(payload.userErrors, (field) => shownField(field, ask));
    if (!Object.keys(refused.fieldErrors).length && !refused.formErrors.length) return reply({ notice: { id: 'error.generic' } });
    return reply(refused);
  }

  const { save } = await readFlow(request, context);
  const headers = {
    'Set-Cookie': await save({
      ...flow,
      registrationCode: invitation.code,
      validityTimestamp: invitation.validityTimestamp,
      slug: invitation.slug,
      registrationEmail: claims.email,
      registrationCountry: value.country,
      registrationNewsLetter: value.newsletter,
      registrationTermsAndConditions: true,
      termsPkString: input.termsPkString,
      dataPolicyPkString: input.dataPolicyPkString,
      // Only this visitor's own new registration carries an id (never an address that was already known).
      memberId: payload.memberId ?? undefined,
      registrationFlow: 'socialRegistration',
      registrationOutcome: payload.outcome,
    }),
  };
  if (payload.outcome === 'ACTIVATED') {
    // The provider vouched for the address: the account is active, no email to confirm, and
    // the new member is an identified customer (the auth token cookie, ADR 022).
    const cookies = new Headers(headers);
    if (payload.memberToken) cookies.append('Set-Cookie', authCookie(payload.memberToken));
    return data(
      {
        kind: 'welcome' as const,
        welcome: { firstName: payload.firstName, voucher: payload.voucher, memberId: payload.memberId, sourcePath: flow.sourcePath ?? null },
      },
      { headers: cookies },
    );
  }
  redirectToOutcomePage(payload.outcome, prefix, headers);
  return reply({ notice: { id: 'error.generic' } });
}

/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { kind: 'form' as const, result: undefined, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.socialSecondStep.title', noIndex: true });

export default function SocialRegistrationSecondStep({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const welcome = actionData?.kind === 'welcome' ? actionData.welcome : null;
  // The provider gave the address (the email step of the other flows); this page is step 2,
  // submitted when its form is (SecondStepForm).
  useTrackOnce({ event: 'email_submitted', flow: 'socialRegistration', emailHash: loaderData.email });
  useTrackOnce({ event: 'step2_landed', flow: 'socialRegistration' });
  useTrackStep(welcome ? { event: 'step2_submitted', flow: 'socialRegistration' } : null);
  // A vouched-for address: no verify-email or activation page, so this is the welcome page too.
  if (welcome) return <Welcome {...welcome} welcomeLanded />;

  const notice = actionData?.kind === 'form' ? actionData.notice : loaderData.state === 'unavailable' ? loaderData.notice : undefined;
  return (
    <div>
      <PageIntro
        eyebrow={loaderData.state === 'ready' && loaderData.inviterName ? t('registration.invitedBy', { inviterName: loaderData.inviterName }) : undefined}
        title={t('socialSecondStep.title')}
        lead={t('socialSecondStep.text')}
      />
      <p className="mt-6 text-lg" data-testid="signed-in-as">{t('socialSecondStep.signedInWith', { email: loaderData.email })}</p>
      {notice && <p role="alert" className="mt-8 border-l-2 border-alert pl-4">{t(notice.id, notice.values)}</p>}
      {loaderData.state === 'ready' && (
        <div className="mt-8">
          <SecondStepForm
            token={loaderData.token}
            ask={loaderData.ask}
            countries={loaderData.countries}
            defaults={loaderData.defaults}
            detectCountryInBrowser={loaderData.detectCountryInBrowser}
            lastResult={actionData?.kind === 'form' ? actionData.result : undefined}
          />
        </div>
      )}
    </div>
  );
}

interface Values {
  gender: string;
  firstName: string;
  lastName: string;
  country: string;
  newsletter: string;
  termsAccepted: string;
  shoppingPreferences: string[];
}

/** Validated with the shared schema in the browser and again on the server, so it behaves the same without JavaScript. */
function SecondStepForm({
  token,
  ask,
  countries,
  defaults,
  detectCountryInBrowser,
  lastResult,
}: {
  token: string;
  ask: AskedNames;
  countries: CountryOption[];
  defaults: Partial<Values>;
  detectCountryInBrowser: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const t = useT();
  const busy = useSubmitting();
  const [form, fields] = useForm<Values>({
    id: 'social-second-step',
    lastResult,
    defaultValue: defaults,
    shouldRevalidate: 'onInput',
    // The action's schema, in the browser too: errors update as the visitor types, no round trip.
    onValidate: clientValidation<Values>((rules) => rules.socialSecondStep(ask)),
    onSubmit: (_event, { submission }) => {
      if (submission?.status === 'success') trackStep({ event: 'step2_submitted', flow: 'socialRegistration' });
    },
  });
  const country = useCountryChoice(fields.country, countries, detectCountryInBrowser);
  const preferences = fields.shoppingPreferences;
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-6">
      <input type="hidden" name="token" value={token} />
      <FormGuard prepare={loadClientValidation} />
      {form.errors?.length ? (
        <p role="alert" className="border-l-2 border-alert pl-4 text-sm">
          {form.errors.map((id) => t(id))}
        </p>
      ) : null}
      <GenderField field={fields.gender} />
      <NameFields firstName={ask.firstName ? fields.firstName : undefined} lastName={ask.lastName ? fields.lastName : undefined} />
      <CountryField field={fields.country} countries={countries} choice={country} />
      <fieldset aria-describedby={describedBy(preferences)}>
        <legend className="eyebrow text-stone">{t('socialSecondStep.preferences')}</legend>
        <div className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3">
          {getCollectionProps(preferences, { type: 'checkbox', options: [...SHOPPING_PREFERENCES] }).map(({ key, ...props }) => (
            <label key={key} className="flex min-h-11 cursor-pointer items-center gap-3">
              <input {...props} className="choice-input" />
              {t(`socialSecondStep.preference.${props.value}`)}
            </label>
          ))}
        </div>
        <FieldErrors field={preferences} />
      </fieldset>
      <ConsentFields newsletter={fields.newsletter} termsAccepted={fields.termsAccepted} country={country.option} countries={countries} />
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {t('socialSecondStep.submit')}
      </button>
    </Form>
  );
}
