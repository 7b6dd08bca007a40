/**
 * Language helpers used on both sides: which prefix a path has, how to build the same
 * page's path in another language, and how to pick a language for an unprefixed path
 * (spec §9: cookie, then the lang query parameter, then browser languages, then en).
 */
import {
  DEFAULT_LOCALE,
  LOCALES,
  type Locale,
  type Prefix,
  isLocale,
  localeFromAcceptLanguage,
} from '@velvet/i18n/locales';

const LANG_COOKIE = 'lang';
/** Spec §9: max-age 2147483647 s, path /, SameSite=Lax. */
const LANG_COOKIE_MAX_AGE = 2147483647;
/**
 * Spec §9: "a locale cookie lasting 365 days (lax same-site)". It records the language the
 * visitor chose in the footer's language selector — a choice, where `lang` also remembers the
 * language of any prefixed page they opened (an email's link) — and outranks `lang` (ADR 022).
 */
const LOCALE_COOKIE = 'locale';
/** The cookies that only choose the language: a prefixed page does not read them (a shared cache may keep it, ADR 053). */
export const LANGUAGE_COOKIES: ReadonlySet<string> = new Set([LANG_COOKIE, LOCALE_COOKIE]);
const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export interface SplitPath {
  prefix: Prefix;
  /** The path without the language prefix, always starting with '/'. */
  rest: string;
}

/**
 * The page path of a request, as the visitor sees it: React Router's data requests add
 * `.data` to the page's path (`/_.data` for `/`, `/de.data` for `/de`; `/_root.data` in
 * React Router 7), and must be read as the page they load data for.
 */
export function pagePath(pathname: string): string {
  if (!pathname.endsWith('.data')) return pathname || '/';
  const page = pathname.slice(0, -'.data'.length);
  if (page === '/_' || page === '/_root') return '/';
  return page.endsWith('/_') ? page.slice(0, -1) : page;
}

/** A page's path as a person reads it: `/de/über-uns`, not `/de/%C3%BCber-uns` (as sent when undecodable). */
export function readablePath(pathname: string): string {
  const path = pagePath(pathname);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * A path with every segment percent-encoded once, whether it came encoded (`/%C3%BCber`) or
 * decoded (`/über`, `/%` from an address that could not be decoded): safe to put in a link.
 */
export function encodedPath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return encodeURIComponent(decodeURIComponent(segment));
      } catch {
        return encodeURIComponent(segment);
      }
    })
    .join('/');
}

/** `/DE/about-us` → `/de/about-us`: the path with its language prefix in lower case, when it was not. */
export function lowercasePrefix(pathname: string): string | null {
  const match = /^\/([A-Za-z]{2})(?=\/|$)/.exec(pathname);
  const segment = match?.[1];
  if (!segment || segment === segment.toLowerCase() || !isLocale(segment.toLowerCase())) return null;
  return `/${segment.toLowerCase()}${pathname.slice(3)}`;
}

export function splitLocalePath(pathname: string): SplitPath {
  const path = pagePath(pathname);
  const match = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(path);
  if (match && isLocale(match[1])) {
    return { prefix: match[1], rest: match[2] || '/' };
  }
  return { prefix: '', rest: path || '/' };
}

/**
 * The path of the same page under another prefix. Query parameters are kept; values are
 * re-encoded so that full web addresses travel URL-encoded.
 */
export function localizedPath(prefix: Prefix, rest: string, search = '', hash = ''): string {
  const cleanRest = rest.startsWith('/') ? rest : `/${rest}`;
  const path = prefix ? `/${prefix}${cleanRest === '/' ? '' : cleanRest}` : cleanRest;
  const params = new URLSearchParams(search);
  const query = params.toString();
  return `${path}${query ? `?${query}` : ''}${hash}`;
}

export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(value.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface LocaleSources {
  pathname: string;
  cookieHeader?: string | null;
  langParam?: string | null;
  acceptLanguage?: string | null;
}

/**
 * The prefix of the URL wins; an unprefixed path follows the cookies (the chosen `locale`,
 * then `lang`) → ?lang → browser → en.
 */
export function resolveLocale(sources: LocaleSources): { locale: Locale; prefix: Prefix } {
  const { prefix } = splitLocalePath(sources.pathname);
  if (prefix) return { locale: prefix, prefix };
  for (const name of [LOCALE_COOKIE, LANG_COOKIE]) {
    const fromCookie = readCookie(sources.cookieHeader, name);
    if (isLocale(fromCookie)) return { locale: fromCookie, prefix };
  }
  const fromQuery = sources.langParam?.toLowerCase();
  if (isLocale(fromQuery)) return { locale: fromQuery, prefix };
  return { locale: localeFromAcceptLanguage(sources.acceptLanguage) ?? DEFAULT_LOCALE, prefix };
}

export function langCookie(locale: Locale, secure: boolean): string {
  return `${LANG_COOKIE}=${locale}; Max-Age=${LANG_COOKIE_MAX_AGE}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function localeCookie(locale: Locale, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; Max-Age=${LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Whether a language may be switched to (spec §5: one of the seven, and available). */
export function isSwitchableLocale(value: string, available: readonly string[] = LOCALES): value is Locale {
  return isLocale(value) && available.includes(value);
}
