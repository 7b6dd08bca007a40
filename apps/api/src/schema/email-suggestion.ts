import { suggestEmail } from '@velvet/validation/email-suggestion';

/** A payload that answers, beside its result, the address the typed one was likely meant to be (issue 24 §3, ADR 061). */
export interface EmailSuggested {
  emailSuggestion: string | null;
}

export const EMAIL_SUGGESTION_DESCRIPTION =
  'The address the typed one was likely meant to be, when its domain is one slip of the fingers from a mail provider\'s ' +
  '("anna@gmx.ed": "anna@gmx.de") or its top level exists nowhere; null otherwise. Advice only: the request was handled with the ' +
  'address as sent, success or userErrors alike, and nothing is changed until the person sends the suggested address.';

/** The result with the suggestion for the address it was asked with. */
export function withEmailSuggestion<T extends object>(result: T, email: string): T & EmailSuggested {
  return { ...result, emailSuggestion: suggestEmail(email) };
}
