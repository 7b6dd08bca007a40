import { LOCALE_NAMES, LOCALES, type Locale } from '@velvet/i18n/locales';
import { Link, useLocation } from 'react-router';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE, localizedPath, splitLocalePath } from '../lib/i18n.ts';
import { useRootData, useT } from '../lib/use-root.ts';

function rememberLanguage(locale: Locale) {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANG_COOKIE}=${locale}; Max-Age=${LANG_COOKIE_MAX_AGE}; Path=/; SameSite=Lax${secure}`;
}

/**
 * Plain links (they work without JavaScript); with JavaScript the router navigates
 * without a reload, keeps the query string and the scroll position, and remembers the
 * choice in the lang cookie.
 */
export function LanguageSelector({ inverse = false }: { inverse?: boolean }) {
  const t = useT();
  const { locale } = useRootData();
  const location = useLocation();
  const { rest } = splitLocalePath(location.pathname);
  return (
    <nav aria-label={t('footer.language')}>
      <h2 className="eyebrow mb-4">{t('footer.language')}</h2>
      <ul className="flex flex-wrap gap-x-5 gap-y-2">
        {LOCALES.map((code) => (
          <li key={code}>
            <Link
              to={localizedPath(code, rest, location.search, location.hash)}
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
