import { LOCALE_NAMES, LOCALES, type Locale } from '@velvet/i18n/locales';
import { Link, useLocation, useRouteError } from 'react-router';
import { encodedPath, langCookie, localeCookie, localizedPath, splitLocalePath } from '../lib/i18n/i18n.ts';
import { useRootData, useT } from '../lib/page/use-root.ts';

/** The visitor's choice: `lang` as every prefixed page sets it, and the 365-day `locale` of a choice (ADR 022). */
function rememberLanguage(locale: Locale) {
  const secure = window.location.protocol === 'https:';
  document.cookie = langCookie(locale, secure);
  document.cookie = localeCookie(locale, secure);
}

/**
 * Plain links (they work without JavaScript); with JavaScript the router navigates
 * without a reload, keeps the query string and the scroll position, and remembers the
 * choice in the lang and locale cookies. On an error page (a 404 in the centred frame) the links
 * keep only the path: the page repeats nothing of the request but the path it names, so an
 * activation id or a token in a mistyped address is not written into it.
 */
export function LanguageSelector({ inverse = false }: { inverse?: boolean }) {
  const t = useT();
  const { locale } = useRootData();
  const location = useLocation();
  const failed = useRouteError() != null;
  const rest = encodedPath(splitLocalePath(location.pathname).rest);
  return (
    <nav aria-label={t('footer.language')}>
      <h2 className="eyebrow mb-4">{t('footer.language')}</h2>
      <ul className="flex flex-wrap gap-x-5 gap-y-2">
        {LOCALES.map((code) => (
          <li key={code}>
            <Link
              to={failed ? localizedPath(code, rest) : localizedPath(code, rest, location.search, location.hash)}
              hrefLang={code}
              lang={code}
              preventScrollReset
              aria-current={code === locale ? 'true' : undefined}
              onClick={() => rememberLanguage(code)}
              className={`text-sm ${code === locale ? 'font-semibold underline underline-offset-4' : inverse ? 'text-paper/80 hover:text-paper' : 'text-stone hover:text-ink'}`}
            >
              {LOCALE_NAMES[code]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
