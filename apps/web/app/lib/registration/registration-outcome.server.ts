/**
 * What the web app does with the answer of `register` and `completeSocialRegistration` — the
 * same registration path in the API, so the same handling here: field errors go back to the
 * form, and each outcome has its page (spec §2). A blocking code refusal is the deny page
 * (denyRefusedCode in registration.server.ts, beside deny).
 */
import type { SubmissionResult } from '@conform-to/react';
import type { Prefix } from '@velvet/i18n/locales';
import { fieldMessages } from '@velvet/validation/user-errors';
import type { UserError } from '@velvet/validation/user-errors';
import { redirect } from 'react-router';
import { localizedPath } from '../i18n/i18n.ts';
import type { Notice } from './registration-code.server.ts';

interface Replyable {
  reply(options?: { fieldErrors?: Record<string, string[]> }): SubmissionResult<string[]>;
}

/** A registration form's answer that stays on the form: Conform's result (with the API's field errors) and a notice above it. */
export function formResult(
  submission: Replyable,
  options: { fieldErrors?: Record<string, string[]>; notice?: Notice; emailSuggestion?: string | null } = {},
) {
  return {
    kind: 'form' as const,
    result: submission.reply(options.fieldErrors ? { fieldErrors: options.fieldErrors } : undefined),
    notice: options.notice,
    /** "Did you mean …?" for the address sent (issue 24 §3): the API's, or the same rules' when the form never reached it. */
    emailSuggestion: options.emailSuggestion ?? null,
  };
}

/**
 * The API's refused fields (userErrors INVALID_FIELD) by the form field that shows them;
 * `shownAs` names it (null: the error goes above the form). Every field is its own by default.
 */
export function groupFieldErrors(
  errors: readonly UserError[],
  shownAs: (field: string) => string | null = (field) => field,
): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors = new Set<string>();
  for (const { field, messageId } of fieldMessages(errors)) {
    const shown = shownAs(field);
    if (shown) (fieldErrors[shown] ??= []).push(messageId);
    else formErrors.add(messageId);
  }
  return { fieldErrors, formErrors: [...formErrors] };
}

/**
 * The page of each outcome that is a page of its own, with the flow cookie's headers:
 * "check your inbox" (FORM_FINISHED; `finishedPath` when the form sits elsewhere), "you
 * have an account" (ACCOUNT_ACTIVE), "your activation email again" (ACCOUNT_PENDING), "we
 * are checking this invitation" (PENDING_REVIEW: the verify-email page's kind variant, which
 * leads on to membership interest; ADR 043).
 * Returns for any other outcome: the caller's to answer.
 */
export function redirectToOutcomePage(
  outcome: string,
  prefix: Prefix,
  headers: HeadersInit,
  finishedPath: string = localizedPath(prefix, '/registration/formfinished'),
): void {
  switch (outcome) {
    case 'FORM_FINISHED':
      throw redirect(finishedPath, { headers });
    case 'ACCOUNT_ACTIVE':
      throw redirect(localizedPath(prefix, '/registration/registrationformemailactivecomplete'), { headers });
    case 'ACCOUNT_PENDING':
      throw redirect(localizedPath(prefix, '/registration/registrationformemailpendingcomplete'), { headers });
    case 'PENDING_REVIEW':
      throw redirect(localizedPath(prefix, '/registration/formfinished'), { headers });
  }
}
