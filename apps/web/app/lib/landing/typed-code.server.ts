/**
 * The landing page's code form (spec §2): a code typed by the visitor, checked as a link's code
 * would be, with the referrer its own arrival brought.
 */
import { invitationSearch } from '@velvet/validation/links';
import { normalizeRegistrationCode, refusalMessage } from '@velvet/validation/registration-code';
import { accessCodeForm } from '@velvet/validation/registration-code-form';
import { redirect } from 'react-router';
import { isScriptedSubmission } from '../forms/form-guard.server.ts';
import { parseWithZod } from '../forms/submission.server.ts';
import { localizedPath } from '../i18n/i18n.ts';
import { localeContext } from '../page/context.ts';
import { apiFailureMessage, checkCode } from '../registration/registration-code.server.ts';
import { deny, referrerOf, type Args } from '../registration/registration.server.ts';
import { readFlow } from '../session.server.ts';

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
  return { result: { errors: [], value: sent }, notice: refusalMessage(check.refusal, 'typed', check.inviterName), errorEvent: check.refusal.event, refused: true };
}
