/** The landing page's waiting-list form (spec §2): an email address, answered with a lobby link by email. */
import { suggestEmail } from '@velvet/validation/email-suggestion';
import { emailForm } from '@velvet/validation/registration';
import { fieldMessages } from '@velvet/validation/user-errors';
import { callApi } from '../api/api.server.ts';
import { requestLobbyLink } from '../api/operations.ts';
import { isScriptedSubmission, proofOfWorkOf } from '../forms/form-guard.server.ts';
import { shownEmail } from '../forms/shown-email.server.ts';
import { parseWithZod } from '../forms/submission.server.ts';
import { localeContext } from '../page/context.ts';
import { apiFailureMessage } from '../registration/registration-code.server.ts';
import type { Args } from '../registration/registration.server.ts';

/** The lobby link goes to the address by email, so only its owner can join (ADR 029). */
export async function joinWaitlist({ request, context }: Args, formData: FormData) {
  const submission = parseWithZod(formData, { schema: emailForm });
  // "Did you mean …?" beside every answer, the sent one too (issue 24 §3).
  const typed = String(formData.get('email') ?? '');
  const emailSuggestion = suggestEmail(typed);
  if (submission.status !== 'success') return { errors: submission.error?.email ?? [], value: typed.slice(0, 300), emailSuggestion };
  // The address as the visitor wrote it, for the answer to echo; the schema's ASCII form for the API (ADR 042).
  const value = shownEmail(submission.value.email);
  // A script: "we have sent a link", as a person would read, and no email (ADR 041).
  if (isScriptedSubmission(formData, context)) return { errors: [], value, sent: true, emailSuggestion };
  const sent = await callApi(
    requestLobbyLink,
    { email: submission.value.email, language: context.get(localeContext).locale, proofOfWork: proofOfWorkOf(formData) },
    { request, context },
  );
  if (!sent.ok) return { errors: [], value, notice: apiFailureMessage(sent.error), emailSuggestion };
  const errors = fieldMessages(sent.data.requestLobbyLink.userErrors).map((e) => e.messageId);
  return { errors, value, sent: errors.length === 0, emailSuggestion: sent.data.requestLobbyLink.emailSuggestion };
}
