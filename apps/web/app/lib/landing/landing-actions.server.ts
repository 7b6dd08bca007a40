/**
 * The landing page's own forms (spec §2): the waiting list's email (a lobby link by email) and
 * the code typed in the code form. The registration pop-up and the product share are
 * registration.server.ts's.
 */
import { invitationSearch } from '@velvet/validation/links';
import { emailForm } from '@velvet/validation/registration';
import { normalizeRegistrationCode, refusalMessage } from '@velvet/validation/registration-code';
import { accessCodeForm } from '@velvet/validation/registration-code-form';
import { fieldMessages } from '@velvet/validation/user-errors';
import { redirect, type RouterContextProvider } from 'react-router';
import { callApi } from '../api/api.server.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../forms/form-guard.server.ts';
import { localeContext } from '../page/context.ts';
import { localizedPath } from '../i18n/i18n.ts';
import { requestLobbyLink } from '../api/operations.ts';
import { apiFailureMessage, checkCode } from '../registration/registration-code.server.ts';
import { deny, referrerOf } from '../registration/registration.server.ts';
import { readFlow } from '../session.server.ts';
import { parseWithZod } from '../forms/submission.server.ts';

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** The waiting list's form: the lobby link goes to the address by email, so only its owner can join (ADR 029). */
export async function joinWaitlist({ request, context }: Args, formData: FormData) {
  const submission = parseWithZod(formData, { schema: emailForm });
  if (submission.status !== 'success') {
    return { errors: submission.error?.email ?? [], value: String(formData.get('email') ?? '').slice(0, 300) };
  }
  const value = submission.value.email;
  // A script: "we have sent a link", as a person would read, and no email (ADR 041).
  if (isScriptedSubmission(formData, context)) return { errors: [], value, sent: true };
  const sent = await callApi(
    requestLobbyLink,
    { email: value, language: context.get(localeContext).locale, proofOfWork: proofOfWorkOf(formData) },
    { request, context },
  );
  if (!sent.ok) return { errors: [], value, notice: apiFailureMessage(sent.error) };
  const errors = fieldMessages(sent.data.requestLobbyLink.userErrors).map((e) => e.messageId);
  return { errors, value, sent: errors.length === 0 };
}

/** The code form: a valid code opens its invitation (a redirect), anything else is said beside the form. */
export async function checkTypedCode(args: Args, formData: FormData, slug: string | null) {
  const { request, context } = args;
  const submission = parseWithZod(formData, { schema: accessCodeForm });
  const sent = String(formData.get('code') ?? '').slice(0, 100);
  if (submission.status !== 'success') {
    return { result: { errors: submission.error?.code ?? [], value: sent }, notice: undefined };
  }
  const typed = { code: normalizeRegistrationCode(submission.value.code), validityTimestamp: null, slug };
  const { prefix } = context.get(localeContext);
  const opened = () => redirect(localizedPath(prefix, slug ? `/${slug}` : '/', invitationSearch({ code: typed.code })), 303);
  // A script: the invitation's page, as for a valid code, unchecked here (the page checks it like any link; ADR 041).
  if (isScriptedSubmission(formData, context)) throw opened();
  // A code typed on our page: the referrer its own arrival brought, if it arrived at all.
  const { referrer } = referrerOf(args, (await readFlow(request, context)).flow, typed);
  const check = await checkCode({ ...typed, referrer }, { request, context });
  if (check.status === 'valid') throw opened();
  if (check.status === 'unavailable') {
    return { result: { errors: [], value: sent }, notice: apiFailureMessage(check.error), errorEvent: null };
  }
  if (check.refusal.reason === 'invalid') {
    return { result: { errors: ['validation.accessCodeInvalid'], value: sent }, notice: undefined };
  }
  if (check.refusal.reason === 'referrer') throw await deny(args, 'referrer', typed, referrer);
  return { result: { errors: [], value: sent }, notice: refusalMessage(check.refusal, 'typed', check.inviterName), errorEvent: check.refusal.event };
}
