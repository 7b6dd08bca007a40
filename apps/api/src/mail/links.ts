/**
 * The addresses the emails link to: the pages of the web app, under the language prefix
 * except for English. The outbox worker builds them when it renders an email; the CLI
 * prints a lobby link.
 */
import { isLocale } from '@velvet/i18n/locales';
import { invitationSearch, siteUrl } from '@velvet/validation/links';

const localeOrEnglish = (locale: string) => (isLocale(locale) ? locale : 'en');

/** The public path of the activation page (spec §2). */
export function activationUrl(publicUrl: string, locale: string, activationId: string): string {
  return siteUrl(publicUrl, localeOrEnglish(locale), '/registration/activateaccount', { activationId });
}

/**
 * The landing page with the code: `${PUBLIC_URL}[/<lang> unless en]/?rc=<CODE>`, with the
 * signed `validityTimestamp` of a personal invitation (which then asks for no proof of work).
 */
export function invitationUrl(publicUrl: string, locale: string, code: string, validityTimestamp?: string): string {
  return siteUrl(publicUrl, localeOrEnglish(locale), '/', invitationSearch({ code, validityTimestamp: validityTimestamp ?? null }));
}

/** The lobby page for `token`: an emailed link's 22-character reference (ADR 060) or an operator's signed lobby token. */
export function lobbyUrl(publicUrl: string, locale: string, token: string): string {
  return siteUrl(publicUrl, localeOrEnglish(locale), '/lobby', { token });
}

/** The page that takes `reference`'s entry off the waiting list (ADR 058): a short path, a 22-character reference. */
export function waitlistLeaveUrl(publicUrl: string, locale: string, reference: string): string {
  return siteUrl(publicUrl, localeOrEnglish(locale), '/waitlist/leave', { ref: reference });
}

/** The status page of `reference` (issue 24 §1, ADR 063): where an applicant or waitlister stands. */
export function statusUrl(publicUrl: string, locale: string, reference: string): string {
  return siteUrl(publicUrl, localeOrEnglish(locale), '/status', { ref: reference });
}

/** The "manage my data" page of `reference` (issue 24 §2, ADR 066): see, download, delete, withdraw newsletter consent. */
export function dataUrl(publicUrl: string, locale: string, reference: string): string {
  return siteUrl(publicUrl, localeOrEnglish(locale), '/my-data', { ref: reference });
}
