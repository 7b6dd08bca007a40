/** The part of a language's catalog the browser needs (email and API texts stay on the server). */
import { messagesFor } from '@velvet/i18n/catalogs';
import type { Locale } from '@velvet/i18n/locales';

// cmp.*: the consent script carries its own texts (ADR 011).
const SERVER_ONLY_PREFIXES = ['email.', 'api.', 'cmp.'];
const clientCatalogs = new Map<Locale, Record<string, string>>();

export function clientMessages(locale: Locale): Record<string, string> {
  let messages = clientCatalogs.get(locale);
  if (!messages) {
    messages = Object.fromEntries(
      Object.entries(messagesFor(locale)).filter(([key]) => !SERVER_ONLY_PREFIXES.some((p) => key.startsWith(p))),
    );
    clientCatalogs.set(locale, messages);
  }
  return messages;
}
