/**
 * The registration use case as the web app sees it: read the invitation from the URL or
 * the flow cookie, validate a step with the shared schema, call `register`, and send the
 * visitor to the page of the outcome.
 */
import { parseWithZod } from '../forms/submission.server.ts';
import { INVITATION_PARAMS, invitationSearch, readInvitation } from '@velvet/validation/links';
import { GENDERS, NAME_MAX_LENGTH, emailForm, leanStep1Form, leanStep2Form, registrationForm } from '@velvet/validation/registration';
import { isRegistrationStep } from '@velvet/validation/registration-steps';
import { verdict, type DenyReason, type RegistrationCodeError } from '@velvet/validation/registration-code';
import { codeErrorsIn } from '@velvet/validation/user-errors';
import type { SubmissionResult } from '@conform-to/react';
import { redirect, type RouterContextProvider } from 'react-router';
import { callApi } from '../api/api.server.ts';
import { invitationReferrer, withDenial } from './arrival.server.ts';
import { localeContext, requestInfoContext } from '../page/context.ts';
import { localizedPath } from '../i18n/i18n.ts';
import { landingOptions } from '../landing/landing-variants.ts';
import { postedLegalVersions } from './legal-versions.ts';
import { register, type RegisterInput } from '../api/operations.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../forms/form-guard.server.ts';
import { apiFailureMessage, type Notice } from './registration-code.server.ts';
import { groupFieldErrors, redirectToOutcomePage } from './registration-outcome.server.ts';
import { keptValue, readFlow, type RegistrationFlowState } from '../session.server.ts';

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export interface Invitation {
  code: string;
  validityTimestamp: string | null;
  slug: string | null;
}

/** The invitation the visitor is registering with: URL first, then the flow cookie. */
export function invitationFrom(url: URL, flow: RegistrationFlowState): Invitation | null {
  const fromUrl = readInvitation(url.searchParams);
  if (fromUrl) return fromUrl;
  // A URL with an empty `rc` keeps nothing of the flow's link but its code.
  const emptyInUrl = url.searchParams.has(INVITATION_PARAMS.code);
  if (!flow.registrationCode) return null;
  return {
    code: flow.registrationCode,
    validityTimestamp: (emptyInUrl ? url.searchParams.get(INVITATION_PARAMS.validityTimestamp) : flow.validityTimestamp) ?? null,
    slug: (emptyInUrl ? url.searchParams.get(INVITATION_PARAMS.slug) : flow.slug) ?? null,
  };
}

/**
 * The outcome pages (verify email, already a member, pending) speak of this visitor's own
 * registration: without one that came to `outcome`, the visitor goes to the start page
 * instead of reading that an email was sent.
 */
export async function requireOutcome(
  { request, context }: Args,
  ...outcomes: NonNullable<RegistrationFlowState['registrationOutcome']>[]
): Promise<RegistrationFlowState> {
  const { flow } = await readFlow(request, context);
  if (!flow.registrationOutcome || !outcomes.includes(flow.registrationOutcome)) {
    throw redirect(localizedPath(context.get(localeContext).prefix, '/'));
  }
  return flow;
}

/** Query string that carries an invitation to the next page. */
export function invitationQuery(invitation: Invitation, extra: Record<string, string> = {}): string {
  return invitationSearch(invitation, extra);
}

/** The deny page for a refusal (`token`: the social sign-up's proof is missing or broken). */
export function denyPath(prefix: string, reason: DenyReason | 'token', invitation?: Invitation): string {
  const params = new URLSearchParams({ reason });
  if (invitation) params.set(INVITATION_PARAMS.code, invitation.code);
  return localizedPath(prefix as never, '/registration/deny', params.toString());
}

/**
 * The redirect to the deny page for a refusal. A refusal for the referrer also leaves the deny
 * page the server's proof (arrival.server.ts) in the flow cookie, so only a refusal we made
 * keeps the invitation aside and is tracked.
 */
export async function deny(
  { request, context }: Args,
  reason: DenyReason,
  invitation: Invitation | undefined,
  referrer: string | null,
  options: { prefix?: string; headers?: Headers; keep?: Partial<RegistrationFlowState> } = {},
): Promise<Response> {
  const prefix = options.prefix ?? context.get(localeContext).prefix;
  const headers = new Headers(options.headers);
  const denial = reason === 'referrer' && referrer;
  if (denial || options.keep) {
    // `keep`: what the refused visitor typed (their address), so the way on starts with it (ADR 043).
    const { flow, save } = await readFlow(request, context);
    const kept = { ...flow, ...options.keep };
    headers.append('Set-Cookie', await save(denial ? withDenial(kept, invitation?.code ?? null, referrer) : kept));
  }
  return redirect(denyPath(prefix, reason, invitation), { headers });
}

/**
 * A blocking refusal of the code (the API checks it with every registration): the deny page,
 * which offers the waiting list and membership interest with the address the visitor gave.
 */
export async function denyRefusedCode(
  args: Args,
  codeErrors: readonly RegistrationCodeError[],
  invitation: Invitation,
  referrer: string | null,
  email: string,
) {
  const refused = verdict(codeErrors);
  if (refused.blocking) throw await deny(args, refused.reason, invitation, referrer, { keep: { registrationEmail: email } });
}

/** The referrer the visitor's invitation arrived with (arrival.server.ts). */
export function referrerOf({ request, context }: Args, flow: RegistrationFlowState, invitation: Invitation) {
  return invitationReferrer(request, context.get(requestInfoContext).publicUrl, flow, invitation.code);
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

interface Replyable {
  reply(options?: { fieldErrors?: Record<string, string[]> }): SubmissionResult<string[]>;
}

function formResult(submission: Replyable, options: { fieldErrors?: Record<string, string[]>; notice?: Notice } = {}) {
  return {
    kind: 'form' as const,
    result: submission.reply(options.fieldErrors ? { fieldErrors: options.fieldErrors } : undefined),
    notice: options.notice,
  };
}


/** Handles a POST of the registration form (any step). Redirects on every outcome. */
export async function handleRegistration(
  { request, context }: Args,
  formData: FormData,
  options: { popup?: boolean; slug?: string | null } = {},
) {
  const { prefix, locale } = context.get(localeContext);
  const url = new URL(request.url);
  const { flow, save } = await readFlow(request, context);
  const found = invitationFrom(url, flow);
  if (!found) throw redirect(denyPath(prefix, 'invalid'));
  const invitation = options.slug === undefined ? found : { ...found, slug: options.slug };
  const posted = formData.get('intent');
  const intent = isRegistrationStep(posted) ? posted : 'one-step';
  // The invitation's own arrival decides, never the Referer of this post (our own page).
  const { referrer } = referrerOf({ request, context }, flow, invitation);

  if (intent === 'lean-1') {
    const submission = parseWithZod(formData, { schema: leanStep1Form });
    if (submission.status !== 'success') return formResult(submission);
    // The versions this form showed for the chosen country; `register` checks them after step 2.
    const option = postedLegalVersions(formData, submission.value.country);
    if (!option) return formResult(submission, { fieldErrors: { country: ['validation.country'] } });
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

  if (intent === 'lean-2' && formData.has('back')) {
    // Back to step 1: what was typed here waits in the flow for the return to step 2.
    const cookie = await save({ ...flow, ...typedNames(formData) });
    throw redirect(localizedPath(prefix, '/registration/formstarted', invitationQuery(invitation)), { headers: { 'Set-Cookie': cookie } });
  }

  // The pop-up's "check your inbox" is the landing page it sits on.
  const finishedInPopup = options.popup
    ? localizedPath(prefix, invitation.slug ? `/${invitation.slug}` : '/', invitationQuery({ ...invitation, slug: null }, { finished: '1' }))
    : undefined;
  if (isScriptedSubmission(formData, context)) {
    // A script (honeypot, too fast): "check your inbox", as a person would read, and no call (ADR 041).
    const email = keptValue(formData.get('email'), 254) ?? flow.registrationEmail;
    const cookie = await save({ ...flow, registrationEmail: email, memberId: undefined, registrationOutcome: 'FORM_FINISHED' });
    redirectToOutcomePage('FORM_FINISHED', prefix, { 'Set-Cookie': cookie }, finishedInPopup);
  }

  const schema = intent === 'lean-2' ? leanStep2Form : registrationForm;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return formResult(submission);
  const value = submission.value as Partial<ReturnType<typeof registrationForm.parse>>;
  const email = intent === 'lean-2' ? flow.registrationEmail : value.email;
  const country = intent === 'lean-2' ? flow.registrationCountry : value.country;
  if (!email || !country) {
    // The lean flow's first step is missing (cookie expired): start it again.
    throw redirect(localizedPath(prefix, '/registration/formstarted', invitationQuery(invitation)));
  }

  // The legal versions the visitor saw: posted by this form, or kept from the lean flow's first
  // step. `register` compares them with the versions in force (none posted: validation.legalVersion).
  const shown = intent === 'one-step' ? postedLegalVersions(formData, country) : flow;
  const termsPkString = shown?.termsPkString;
  const dataPolicyPkString = shown?.dataPolicyPkString;

  const input: RegisterInput = {
    registrationCode: invitation.code,
    validityTimestamp: invitation.validityTimestamp,
    slug: invitation.slug,
    referrer,
    email,
    gender: value.gender ?? null,
    firstName: value.firstName ?? null,
    lastName: value.lastName ?? null,
    country,
    newsletter: intent === 'lean-2' ? Boolean(flow.registrationNewsLetter) : Boolean(value.newsletter),
    termsAccepted: true,
    termsPkString: termsPkString ?? '',
    dataPolicyPkString: dataPolicyPkString ?? '',
    language: locale,
    flow: landingOptions(invitation.slug).registrationFlow === 'leanStep1' || intent === 'lean-2' ? 'LEAN' : 'DEFAULT',
    // What the page's script solved (ADR 041); a personal invitation's signed link needs none.
    proofOfWork: proofOfWorkOf(formData),
  };
  const result = await callApi(register, { input }, { request, context });
  if (!result.ok) return formResult(submission, { notice: apiFailureMessage(result.error) });
  const payload = result.data.register;
  // `register` checked the code itself and returns its refusal as data.
  await denyRefusedCode({ request, context }, codeErrorsIn(payload.userErrors), invitation, referrer, email);
  if (!payload.outcome) {
    const { fieldErrors } = groupFieldErrors(payload.userErrors);
    return formResult(submission, { fieldErrors, ...(Object.keys(fieldErrors).length ? {} : { notice: { id: 'error.generic' } }) });
  }
  const cookie = await save({
    ...flow,
    registrationCode: invitation.code,
    validityTimestamp: invitation.validityTimestamp,
    slug: invitation.slug,
    registrationEmail: email,
    registrationCountry: country,
    ...(input.gender ? { registrationGender: input.gender } : {}),
    ...(input.firstName ? { registrationFirstName: input.firstName } : {}),
    ...(input.lastName ? { registrationLastName: input.lastName } : {}),
    // Only this visitor's own new registration carries an id (never an address that was already known).
    memberId: payload.memberId ?? undefined,
    registrationNewsLetter: input.newsletter,
    registrationTermsAndConditions: true,
    registrationFlow: input.flow === 'LEAN' ? 'leanStep2' : 'default',
    registrationOutcome: payload.outcome,
  });
  redirectToOutcomePage(payload.outcome, prefix, { 'Set-Cookie': cookie }, finishedInPopup);
  return formResult(submission, { notice: { id: 'error.generic' } });
}

/**
 * The product-share pop-up: a valid email starts the registration with the sharer's
 * invitation, the address already filled in.
 */
export async function handleProductShare({ request, context }: Args, formData: FormData, slug: string | null) {
  const { prefix } = context.get(localeContext);
  const submission = parseWithZod(formData, { schema: emailForm });
  if (submission.status !== 'success') return formResult(submission);
  const { flow, save } = await readFlow(request, context);
  const invitation = invitationFrom(new URL(request.url), flow);
  if (!invitation) throw redirect(denyPath(prefix, 'invalid'));
  const withSlug = { ...invitation, slug };
  // A script (honeypot, too fast): the form's next page as for anyone, and its address is not kept (ADR 041).
  const email = isScriptedSubmission(formData, context) ? flow.registrationEmail : submission.value.email;
  const cookie = await save({ ...flow, registrationCode: withSlug.code, validityTimestamp: withSlug.validityTimestamp, slug, registrationEmail: email });
  throw redirect(localizedPath(prefix, '/registration/formstarted', invitationQuery(withSlug)), { headers: { 'Set-Cookie': cookie } });
}
