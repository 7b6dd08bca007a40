/**
 * A registration form's POST (ADR 008), by its step (the form's `intent`): the lean flow's first
 * step is kept in the flow cookie and leads to the second; the second step's "back" returns to
 * the first; a script is answered as a person would be, without a call (ADR 041); the one-step
 * form and the lean flow's second step validate with the shared schema, call `register` and send
 * the visitor to the page of the outcome.
 */
import type { Locale, Prefix } from '@velvet/i18n/locales';
import { NAME_MAX_LENGTH, leanStep1Form, leanStep2Form, registrationForm } from '@velvet/validation/registration';
import { GENDERS } from '@velvet/validation/registration-options';
import { isRegistrationStep, type RegistrationStep } from '@velvet/validation/registration-steps';
import { suggestEmail } from '@velvet/validation/email-suggestion';
import { codeErrorsIn } from '@velvet/validation/user-errors';
import { redirect } from 'react-router';
import { callApi } from '../api/api.server.ts';
import { register, type RegisterInput } from '../api/operations.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../forms/form-guard.server.ts';
import { parseWithZod } from '../forms/submission.server.ts';
import { localizedPath } from '../i18n/i18n.ts';
import { landingOptions } from '../landing/landing-variants.ts';
import { localeContext } from '../page/context.ts';
import { keptValue, readFlow, type RegistrationFlowState } from '../session.server.ts';
import { postedLegalVersions } from './legal-versions.ts';
import { apiFailureMessage } from './registration-code.server.ts';
import { formResult, groupFieldErrors, redirectToOutcomePage } from './registration-outcome.server.ts';
import { denyPath, denyRefusedCode, invitationFrom, invitationQuery, referrerOf, type Args, type Invitation } from './registration.server.ts';

/** One POST of a registration form: the visitor's flow, the invitation they register with, the step. */
interface Post {
  args: Args;
  formData: FormData;
  prefix: Prefix;
  locale: Locale;
  flow: RegistrationFlowState;
  save: (next: RegistrationFlowState) => Promise<string>;
  invitation: Invitation;
  step: RegistrationStep;
  /** The invitation's own arrival decides, never the Referer of this post (our own page). */
  referrer: string | null;
}

/**
 * Handles a POST of the registration form (any step). Redirects on every outcome.
 * `popup`: the form is the landing page's pop-up, whose "check your inbox" is that page.
 * `slug`: the campaign of the page the form is on (the landing page's own, not the flow's).
 */
export async function handleRegistration(args: Args, formData: FormData, options: { popup?: boolean; slug?: string | null } = {}) {
  const post = await readPost(args, formData, options.slug);
  if (post.step === 'lean-1') return keepLeanStep1(post);
  if (post.step === 'lean-2' && formData.has('back')) return backToLeanStep1(post);
  const finishedPath = options.popup ? popupFinishedPath(post) : undefined;
  if (isScriptedSubmission(formData, args.context)) await answerScript(post, finishedPath);
  return registerMember(post, finishedPath);
}

/** The invitation of the post (URL first, then the flow cookie; none: the deny page) and its step. */
async function readPost(args: Args, formData: FormData, slug: string | null | undefined): Promise<Post> {
  const { request, context } = args;
  const { prefix, locale } = context.get(localeContext);
  const url = new URL(request.url);
  const { flow, save } = await readFlow(request, context);
  const found = invitationFrom(url, flow);
  if (!found) throw redirect(denyPath(prefix, 'invalid'));
  const invitation = slug === undefined ? found : { ...found, slug };
  const posted = formData.get('intent');
  const step = isRegistrationStep(posted) ? posted : 'one-step';
  const { referrer } = referrerOf({ request, context }, flow, invitation);
  return { args, formData, prefix, locale, flow, save, invitation, step, referrer };
}

/** The lean flow's first step (email, country, consent): kept in the flow cookie, then on to step 2. */
async function keepLeanStep1({ formData, prefix, flow, save, invitation }: Post) {
  const submission = parseWithZod(formData, { schema: leanStep1Form });
  if (submission.status !== 'success') return formResult(submission, { emailSuggestion: typedSuggestion(formData) });
  // The versions this form showed for the chosen country; `register` checks them after step 2.
  const option = postedLegalVersions(formData, submission.value.country);
  if (!option) return formResult(submission, { fieldErrors: { country: ['validation.country'] }, emailSuggestion: typedSuggestion(formData) });
  const cookie = await save({
    ...flow,
    registrationCode: invitation.code,
    validityTimestamp: invitation.validityTimestamp,
    slug: invitation.slug,
    registrationEmail: submission.value.email,
    registrationCountry: submission.value.country,
    registrationNewsLetter: submission.value.newsletter,
    registrationTermsAndConditions: true,
    termsPkString: option.termsPkString,
    dataPolicyPkString: option.dataPolicyPkString,
    registrationFlow: 'leanStep2',
  });
  throw redirect(localizedPath(prefix, '/registration/formstarted', invitationQuery(invitation, { step: '2' })), { headers: { 'Set-Cookie': cookie } });
}

/** Back to the lean flow's first step: what was typed in the second waits in the flow for the return to it. */
async function backToLeanStep1({ formData, prefix, flow, save, invitation }: Post): Promise<never> {
  const cookie = await save({ ...flow, ...typedNames(formData) });
  throw redirect(localizedPath(prefix, '/registration/formstarted', invitationQuery(invitation)), { headers: { 'Set-Cookie': cookie } });
}

/** Gender and names as typed (not yet valid, perhaps): kept for the visitor's return. */
function typedNames(formData: FormData): Pick<RegistrationFlowState, 'registrationGender' | 'registrationFirstName' | 'registrationLastName'> {
  const gender = keptValue(formData.get('gender'));
  return {
    registrationGender: (GENDERS as readonly (string | undefined)[]).includes(gender) ? gender : undefined,
    registrationFirstName: keptValue(formData.get('firstName'), NAME_MAX_LENGTH),
    registrationLastName: keptValue(formData.get('lastName'), NAME_MAX_LENGTH),
  };
}

/**
 * "Did you mean …?" for the address as posted, when the form stops before the API (the same
 * @velvet/validation rules the API answers with): the visitor sees it with the errors, typing kept.
 */
function typedSuggestion(formData: FormData): string | null {
  const typed = formData.get('email');
  return typeof typed === 'string' ? suggestEmail(typed) : null;
}

/** The pop-up's "check your inbox" is the landing page it sits on. */
function popupFinishedPath({ prefix, invitation }: Post): string {
  return localizedPath(prefix, invitation.slug ? `/${invitation.slug}` : '/', invitationQuery({ ...invitation, slug: null }, { finished: '1' }));
}

/**
 * A script (honeypot, too fast): "check your inbox", as a person would read, and no call (ADR
 * 041). A whole registration is kept in the flow as a person's would be: a person taken for a
 * script finds no email, and the page's "send it again" sends it for real (resend.server.ts).
 */
async function answerScript(post: Post, finishedPath: string | undefined) {
  const { formData, prefix, flow, save, step } = post;
  const submission = parseWithZod(formData, { schema: step === 'lean-2' ? leanStep2Form : registrationForm });
  const email = keptValue(formData.get('email'), 254) ?? flow.registrationEmail;
  const kept =
    submission.status === 'success'
      ? registeredFlow(post, registerInput(post, submission.value as Partial<ReturnType<typeof registrationForm.parse>>), undefined, 'FORM_FINISHED')
      : { ...flow, registrationEmail: email, memberId: undefined, registrationOutcome: 'FORM_FINISHED' as const };
  const cookie = await save(kept);
  redirectToOutcomePage('FORM_FINISHED', prefix, { 'Set-Cookie': cookie }, finishedPath);
}

/**
 * The one-step form or the lean flow's second step: validated, sent to `register`, and the
 * outcome's page with the flow that outcome leaves (field errors and notices stay on the form).
 */
async function registerMember(post: Post, finishedPath: string | undefined) {
  const { args, formData, prefix, step } = post;
  const submission = parseWithZod(formData, { schema: step === 'lean-2' ? leanStep2Form : registrationForm });
  if (submission.status !== 'success') return formResult(submission, { emailSuggestion: typedSuggestion(formData) });
  const input = registerInput(post, submission.value as Partial<ReturnType<typeof registrationForm.parse>>);
  const result = await callApi(register, { input }, { request: args.request, context: args.context });
  if (!result.ok) return formResult(submission, { notice: apiFailureMessage(result.error), emailSuggestion: typedSuggestion(formData) });
  const payload = result.data.register;
  // `register` checked the code itself and returns its refusal as data.
  await denyRefusedCode({ request: args.request, context: args.context }, codeErrorsIn(payload.userErrors), post.invitation, post.referrer, input.email);
  if (!payload.outcome) {
    const { fieldErrors } = groupFieldErrors(payload.userErrors);
    return formResult(submission, {
      fieldErrors,
      ...(Object.keys(fieldErrors).length ? {} : { notice: { id: 'error.generic' } }),
      emailSuggestion: payload.emailSuggestion,
    });
  }
  const cookie = await post.save({
    ...registeredFlow(post, input, payload.memberId ?? undefined, payload.outcome),
    // The pending page says whether the email went out again or this hour's are used up.
    resendLimitReached: payload.resendLimitReached || undefined,
  });
  redirectToOutcomePage(payload.outcome, prefix, { 'Set-Cookie': cookie }, finishedPath);
  return formResult(submission, { notice: { id: 'error.generic' } });
}

/**
 * What `register` is sent: the posted step's fields, and what the lean flow's first step kept
 * (its email, country, newsletter choice and the legal versions it showed) for its second.
 */
function registerInput(
  { formData, prefix, locale, flow, invitation, step, referrer }: Post,
  value: Partial<ReturnType<typeof registrationForm.parse>>,
): RegisterInput {
  const email = step === 'lean-2' ? flow.registrationEmail : value.email;
  const country = step === 'lean-2' ? flow.registrationCountry : value.country;
  if (!email || !country) {
    // The lean flow's first step is missing (cookie expired): start it again.
    throw redirect(localizedPath(prefix, '/registration/formstarted', invitationQuery(invitation)));
  }
  // The legal versions the visitor saw: posted by this form, or kept from the lean flow's first
  // step. `register` compares them with the versions in force (none posted: validation.legalVersion).
  const shown = step === 'one-step' ? postedLegalVersions(formData, country) : flow;
  return {
    registrationCode: invitation.code,
    validityTimestamp: invitation.validityTimestamp,
    slug: invitation.slug,
    referrer,
    email,
    gender: value.gender ?? null,
    firstName: value.firstName ?? null,
    lastName: value.lastName ?? null,
    country,
    newsletter: step === 'lean-2' ? Boolean(flow.registrationNewsLetter) : Boolean(value.newsletter),
    termsAccepted: true,
    termsPkString: shown?.termsPkString ?? '',
    dataPolicyPkString: shown?.dataPolicyPkString ?? '',
    language: locale,
    flow: landingOptions(invitation.slug).registrationFlow === 'leanStep1' || step === 'lean-2' ? 'LEAN' : 'DEFAULT',
    // What the page's script solved (ADR 041); a personal invitation's signed link needs none.
    proofOfWork: proofOfWorkOf(formData),
  };
}

/** The flow after `register` answered with an outcome: what its page and the visitor's return read. */
function registeredFlow(
  { flow, invitation }: Post,
  input: RegisterInput,
  memberId: string | undefined,
  outcome: NonNullable<RegistrationFlowState['registrationOutcome']>,
): RegistrationFlowState {
  return {
    ...flow,
    registrationCode: invitation.code,
    validityTimestamp: invitation.validityTimestamp,
    slug: invitation.slug,
    registrationEmail: input.email,
    registrationCountry: input.country,
    ...(input.gender ? { registrationGender: input.gender } : {}),
    ...(input.firstName ? { registrationFirstName: input.firstName } : {}),
    ...(input.lastName ? { registrationLastName: input.lastName } : {}),
    // Only this visitor's own new registration carries an id (never an address that was already known).
    memberId,
    registrationNewsLetter: input.newsletter,
    registrationTermsAndConditions: true,
    // The legal versions the visitor accepted: "send it again" sends the same (resend.server.ts).
    termsPkString: input.termsPkString,
    dataPolicyPkString: input.dataPolicyPkString,
    registrationFlow: input.flow === 'LEAN' ? 'leanStep2' : 'default',
    registrationOutcome: outcome,
    resendLimitReached: undefined,
  };
}
