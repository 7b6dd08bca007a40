/**
 * The messages of a page (ADR 038). The HTML carries only what its first render formatted, as
 * parsed ICU messages (so the browser needs no message parser), in a JSON data block after the
 * page (`PageMessages`): the server records every id the render asks for, the page's title and
 * description among them (`notePageMessages`). Form answers (`validation.*`), errors (`error.*`)
 * and the error pages' titles always come along. After hydration the
 * browser fetches the language's whole client catalog (cached by version), which later
 * navigations, lazily loaded parts and pop-ups wait for.
 */
import type { Locale } from '@velvet/i18n/locales';
import type { MessageFormatElement } from 'react-intl';

export type ParsedMessages = Record<string, MessageFormatElement[]>;
export type Messages = Record<string, string> | ParsedMessages;

/** The data block's id. */
export const PAGE_MESSAGES_ID = 'page-messages';
/** Always in the page, whatever its first render formatted. */
export const ALWAYS_SENT_PREFIXES = ['meta.error.', 'meta.notFound.', 'validation.', 'error.'];
/** The whole client catalog of a language (served by the web server, server/app.ts). */
const catalogPath = (locale: Locale, version: string) => `/messages/${locale}.json?v=${version}`;

/** What the server hands the page: its language, the catalog's version, its messages. */
export interface PagePayload {
  locale: Locale;
  version: string;
  messages: ParsedMessages;
}

/** The server's side, provided by entry.server.tsx (server-only code the page cannot import). */
export interface ServerMessages {
  /** The whole client catalog, parsed (the literal messages then need no formatting at all). */
  catalog(locale: Locale): ParsedMessages;
  /** The data block's text: the recorded ids and the always-sent ones, parsed; safe inside <script>. */
  pageBlock(locale: Locale, ids: Iterable<string>): string;
}

let server: ServerMessages | undefined;

export function provideServerMessages(messages: ServerMessages): void {
  server = messages;
}

export function onServer(): ServerMessages {
  if (!server) throw new Error('provideServerMessages() was not called (entry.server.tsx)');
  return server;
}

/**
 * The ids the server's render of a page formats, by that render's root data (one object per
 * request): the root's `Layout` registers its set, and the meta functions, which format outside
 * React's tree, add theirs, so the page's own title and description come with it.
 */
const recorders = new WeakMap<object, Set<string>>();

export function recordPageMessages(rootData: object, used: Set<string>): void {
  recorders.set(rootData, used);
}

export function notePageMessages(rootData: object, ids: readonly (string | undefined)[]): void {
  const used = recorders.get(rootData);
  if (used) for (const id of ids) if (id) used.add(id);
}

/** A catalog that notes every id a render asks for (formatMessage checks hasOwnProperty, then reads). */
export function recording<T extends Messages>(catalog: T, used: Set<string>): T {
  const note = (key: string | symbol) => {
    if (typeof key === 'string' && Object.prototype.hasOwnProperty.call(catalog, key)) used.add(key);
  };
  return new Proxy(catalog, {
    get(target, key) {
      note(key);
      return Reflect.get(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      note(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
}

// The browser's side.

let pageBlock: string | undefined;
let page: PagePayload | null | undefined;
const catalogs = new Map<Locale, ParsedMessages>();
const loading = new Map<Locale, Promise<void>>();
const listeners = new Set<() => void>();
let version = 0;
/** Languages a render asked a message of that was not there yet (it renders again once the catalog is). */
const missed = new Set<Locale>();

/** The data block as the server wrote it (read once, before hydration). */
export function pageBlockText(): string {
  if (pageBlock === undefined) pageBlock = typeof document === 'undefined' ? '' : (document.getElementById(PAGE_MESSAGES_ID)?.textContent ?? '');
  return pageBlock;
}

function pagePayload(): PagePayload | null {
  if (page === undefined) {
    try {
      page = pageBlockText() ? (JSON.parse(pageBlockText()) as PagePayload) : null;
    } catch {
      page = null;
    }
  }
  return page;
}

/** The messages the browser has for `locale`: the whole catalog once fetched, else the page's own. */
export function browserMessages(locale: Locale): ParsedMessages {
  const loaded = catalogs.get(locale);
  if (loaded) return loaded;
  const own = pagePayload();
  return own?.locale === locale ? own.messages : {};
}

/** The messages of `locale` wherever this runs: the server's whole catalog, or what the browser has so far. */
export function messagesOf(locale: Locale): Messages {
  return typeof window === 'undefined' ? onServer().catalog(locale) : browserMessages(locale);
}

/**
 * For `pageIntl`'s onMissing in the browser: a message the page did not bring is expected
 * until the catalog is there (it is fetched now, and the page renders again with it).
 */
export function missingUntilLoaded(locale: Locale): () => boolean {
  return () => {
    if (typeof window === 'undefined' || catalogs.has(locale)) return false;
    missed.add(locale);
    void loadCatalog(locale);
    return true;
  };
}

/** Fetches the whole client catalog of `locale` (once; a failure is tried again by the next call). */
export function loadCatalog(locale: Locale): Promise<void> {
  if (typeof window === 'undefined' || catalogs.has(locale)) return Promise.resolve();
  const own = pagePayload();
  if (!own) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = fetch(catalogPath(locale, own.version), { credentials: 'same-origin' })
      .then((response) => (response.ok ? (response.json() as Promise<ParsedMessages>) : Promise.reject(new Error(`catalog ${locale}: ${response.status}`))))
      .then((messages) => {
        // The page had every message it shows: the catalog fills in the very object it formats
        // with, and nothing renders again (a whole-page render on a phone is a long task). A page
        // that lacked one gets a new object, so every part that shows a message renders anew.
        const rendersAgain = own.locale !== locale || missed.has(locale);
        catalogs.set(locale, rendersAgain ? messages : Object.assign(own.messages, messages));
        missed.delete(locale);
        if (!rendersAgain) return;
        version++;
        for (const listener of [...listeners]) listener();
      })
      .finally(() => loading.delete(locale));
    loading.set(locale, pending);
  }
  return pending.catch(() => undefined);
}

/** The page's own language's whole catalog (lazy parts and pop-ups wait for it). */
export function pageCatalogReady(): Promise<void> {
  const own = pagePayload();
  return own ? loadCatalog(own.locale) : Promise.resolve();
}

export function subscribeMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const messagesVersion = () => version;
