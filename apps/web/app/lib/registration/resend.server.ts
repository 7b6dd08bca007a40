/**
 * "Send it again" on the check-your-inbox page (issue 20 §1): the registration this visitor
 * sent, kept in their signed flow cookie, goes to `register` once more as a real, checked
 * request — with the form's start, its honeypot and a fresh proof of work, under the API's
 * limits. For an address waiting for activation the API sends the email again (at most
 * RESENDS_PER_HOUR an hour; beyond, it says so and the page says so). For a registration a
 * guard took for a script's, and so never wrote (ADR 041), this request is the registration:
 * a person wrongly refused notices that no email came and recovers with one press.
 */
import type { Locale } from '@velvet/i18n/locales';
import { isRegistrationFlow } from '@velvet/validation/registration';
import { GENDERS, type Gender } from '@velvet/validation/registration-options';
import { codeErrorsIn, fieldMessages } from '@velvet/validation/user-errors';
import { data } from 'react-router';
import { callApi } from '../api/api.server.ts';
import { register, type RegisterInput } from '../api/operations.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../forms/form-guard.server.ts';
import { localeContext } from '../page/context.ts';
import { readFlow, type RegistrationFlowState } from '../session.server.ts';
import { apiFailureMessage, type Notice } from './registration-code.server.ts';
import { redirectToOutcomePage } from './registration-outcome.server.ts';
import { denyRefusedCode, referrerOf, type Args, type Invitation } from './registration.server.ts';

/** What the page shows after a press: the email went out again, the hour's emails are used up, or a notice. */
type ResendAnswer = { resent: 'sent' | 'limit'; notice: null } | { resent: null; notice: Notice };

type WholeRegistration = RegistrationFlowState &
  Required<Pick<RegistrationFlowState, 'registrationCode' | 'registrationEmail' | 'registrationCountry' | 'termsPkString' | 'dataPolicyPkString'>>;

/** Whether the flow holds a whole registration to send again (one made before this page could keep one does not). */
export function canSendAgain(flow: RegistrationFlowState): flow is WholeRegistration {
  return Boolean(flow.registrationCode && flow.registrationEmail && flow.registrationCountry && flow.termsPkString && flow.dataPolicyPkString);
}

/** The registration the flow kept, as `register` takes it; null when the flow does not hold a whole one. */
function keptRegistration(flow: RegistrationFlowState, language: Locale, proofOfWork: string | null): RegisterInput | null {
  if (!canSendAgain(flow)) return null;
  const { registrationCode, registrationEmail, registrationCountry, termsPkString, dataPolicyPkString } = flow;
  return {
    registrationCode,
    validityTimestamp: flow.validityTimestamp ?? null,
    slug: flow.slug ?? null,
    referrer: null,
    email: registrationEmail,
    gender: (GENDERS as readonly string[]).includes(flow.registrationGender ?? '') ? (flow.registrationGender as Gender) : null,
    firstName: flow.registrationFirstName ?? null,
    lastName: flow.registrationLastName ?? null,
    country: registrationCountry,
    newsletter: Boolean(flow.registrationNewsLetter),
    termsAccepted: true,
    termsPkString,
    dataPolicyPkString,
    language,
    flow: isRegistrationFlow(flow.registrationFlow) && flow.registrationFlow !== 'default' ? 'LEAN' : 'DEFAULT',
    proofOfWork,
  };
}

/** The check-your-inbox page's POST: the kept registration sent again. Redirects when the outcome has a page of its own. */
export async function resendRegistration(args: Args, formData: FormData) {
  const { request, context } = args;
  const { locale, prefix } = context.get(localeContext);
  const { flow, save } = await readFlow(request, context);
  const kept = keptRegistration(flow, locale, proofOfWorkOf(formData));
  if (!kept) return { resent: null, notice: { id: 'formFinished.resend.unavailable' } } satisfies ResendAnswer;
  // A script: the answer a person gets, and no call (ADR 041).
  if (isScriptedSubmission(formData, context)) return { resent: 'sent', notice: null } satisfies ResendAnswer;
  const invitation: Invitation = { code: kept.registrationCode, validityTimestamp: kept.validityTimestamp ?? null, slug: kept.slug ?? null };
  const input: RegisterInput = { ...kept, referrer: referrerOf(args, flow, invitation).referrer };
  const result = await callApi(register, { input }, { request, context });
  if (!result.ok) return { resent: null, notice: apiFailureMessage(result.error) } satisfies ResendAnswer;
  const payload = result.data.register;
  await denyRefusedCode(args, codeErrorsIn(payload.userErrors), invitation, input.referrer ?? null, input.email);
  switch (payload.outcome) {
    case 'FORM_FINISHED': {
      // The registration an earlier guard refused is made now: its id is this page's to watch.
      const cookie = await save({ ...flow, memberId: payload.memberId ?? undefined });
      return data({ resent: 'sent', notice: null } satisfies ResendAnswer, { headers: { 'Set-Cookie': cookie } });
    }
    case 'ACCOUNT_PENDING':
      return { resent: payload.resendLimitReached ? 'limit' : 'sent', notice: null } satisfies ResendAnswer;
    case 'ACCOUNT_ACTIVE':
    case 'PENDING_REVIEW': {
      // Activated meanwhile, or held for review: that outcome's page.
      const cookie = await save({ ...flow, registrationOutcome: payload.outcome });
      redirectToOutcomePage(payload.outcome, prefix, { 'Set-Cookie': cookie });
    }
  }
  // Refused fields (the legal texts changed since, the address is no longer accepted): the first one's message.
  const [first] = fieldMessages(payload.userErrors);
  return { resent: null, notice: { id: first?.messageId ?? 'error.generic' } } satisfies ResendAnswer;
}
