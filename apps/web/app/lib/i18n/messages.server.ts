/** The part of a language's catalog the browser needs (email and API texts stay on the server), as the page gets it (ADR 038). */
import { createHash } from 'node:crypto';
import { parse } from '@formatjs/icu-messageformat-parser';
import { messagesFor } from '@velvet/i18n/catalogs';
import { LOCALES, type Locale } from '@velvet/i18n/locales';
import { ALWAYS_SENT_PREFIXES, type PagePayload, type ParsedMessages, type ServerMessages } from './messages.ts';

// cmp.*: the consent script carries its own texts (ADR 011).
const SERVER_ONLY_PREFIXES = ['email.', 'api.', 'cmp.'];
const clientCatalogs = new Map<Locale, Record<string, string>>();
const parsedCatalogs = new Map<Locale, ParsedMessages>();

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

/** The client catalog parsed into FormatJS's message trees: the browser formats them without a parser. */
function parsedClientMessages(locale: Locale): ParsedMessages {
  let parsed = parsedCatalogs.get(locale);
  if (!parsed) {
    parsed = Object.fromEntries(Object.entries(clientMessages(locale)).map(([key, message]) => [key, parse(message)]));
    parsedCatalogs.set(locale, parsed);
  }
  return parsed;
}

const catalogBodies = new Map<Locale, string>();

/** The body of GET /messages/<locale>.json (server/app.ts). */
export function catalogJson(locale: Locale): string {
  let body = catalogBodies.get(locale);
  if (!body) {
    body = JSON.stringify(parsedClientMessages(locale));
    catalogBodies.set(locale, body);
  }
  return body;
}

let catalogVersion: string | undefined;

/** Changes whenever any client text changes: the catalog's address carries it, so browsers may cache it for good. */
export function clientCatalogVersion(): string {
  catalogVersion ??= createHash('sha256')
    .update(JSON.stringify(LOCALES.map((locale) => clientMessages(locale))))
    .digest('base64url')
    .slice(0, 12);
  return catalogVersion;
}

/** JSON that is safe inside a <script> element (no "</script>", no line separators JavaScript would choke on). */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The data blocks already written, by language and ids: a page formats the same ids every time. */
const blocks = new Map<string, string>();
const MAX_BLOCKS = 500;

export const serverMessages: ServerMessages = {
  catalog: parsedClientMessages,
  pageBlock(locale, ids) {
    const wanted = [...ids].sort();
    const key = `${locale}\n${wanted.join('\n')}`;
    let block = blocks.get(key);
    if (block === undefined) {
      const all = parsedClientMessages(locale);
      const messages: ParsedMessages = {};
      const sent = new Set(wanted);
      for (const id of Object.keys(all).sort()) {
        if (sent.has(id) || ALWAYS_SENT_PREFIXES.some((prefix) => id.startsWith(prefix))) messages[id] = all[id]!;
      }
      block = scriptSafeJson({ locale, version: clientCatalogVersion(), messages } satisfies PagePayload);
      if (blocks.size >= MAX_BLOCKS) blocks.clear();
      blocks.set(key, block);
    }
    return block;
  },
};
