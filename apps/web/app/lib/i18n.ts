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

export const LANG_COOKIE = 'lang';
/** Spec §9: max-age 2147483647 s, path /, SameSite=Lax. */
export const LANG_COOKIE_MAX_AGE = 2147483647;

export interface SplitPath {
  prefix: Prefix;
  /** The path without the language prefix, always starting with '/'. */
  rest: string;
}

/**
 * The page path of a request: React Router's data requests add `.data` to the page's
 * path (`/_root.data` for `/`), and must be read as the page they load data for.
 */
export function pagePath(pathname: string): string {
  if (pathname === '/_root.data') return '/';
  return pathname.endsWith('.data') ? pathname.slice(0, -'.data'.length) : pathname;
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

/** The path for `rest` in the language the visitor is reading (keeps the current prefix). */
export function pathIn(prefix: Prefix, rest: string): string {
  return localizedPath(prefix, rest);
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

/** The prefix of the URL wins; an unprefixed path follows cookie → ?lang → browser → en. */
export function resolveLocale(sources: LocaleSources): { locale: Locale; prefix: Prefix } {
  const { prefix } = splitLocalePath(sources.pathname);
  if (prefix) return { locale: prefix, prefix };
  const fromCookie = readCookie(sources.cookieHeader, LANG_COOKIE);
  if (isLocale(fromCookie)) return { locale: fromCookie, prefix };
  const fromQuery = sources.langParam?.toLowerCase();
  if (isLocale(fromQuery)) return { locale: fromQuery, prefix };
  return { locale: localeFromAcceptLanguage(sources.acceptLanguage) ?? DEFAULT_LOCALE, prefix };
}

export function langCookie(locale: Locale, secure: boolean): string {
  return `${LANG_COOKIE}=${locale}; Max-Age=${LANG_COOKIE_MAX_AGE}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Whether a language may be switched to (spec §5: one of the seven, and available). */
export function isSwitchableLocale(value: string, available: readonly string[] = LOCALES): value is Locale {
  return isLocale(value) && available.includes(value);
}
