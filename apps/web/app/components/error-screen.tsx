import { useContext } from 'react';
import { IntlContext } from 'react-intl';
import { Link } from 'react-router';
import { Logo } from './logo.tsx';

/**
 * The framework error page. It renders even when the root loader failed, so it cannot
 * rely on a catalog: the spec's English texts are then the last resort.
 */
export function ErrorScreen({ status, path }: { status: number; path?: string | undefined }) {
  const intl = useContext(IntlContext);
  const t = (id: string, fallback: string, values?: Record<string, string>) =>
    intl ? intl.formatMessage({ id }, values) : fallback.replace('{path}', values?.path ?? '');
  const notFound = status === 404;
  const heading = notFound ? t('error.pageNotFound', 'Page Not Found') : t('error.internal', 'Internal Server Error');
  const text = notFound
    ? t('notFound.text', 'The page cannot be found.')
    : t('error.generic', 'A technical issue means the store is unavailable at the moment. Please try again later.');
  const home = intl && intl.locale !== 'en' ? `/${intl.locale}` : '/';
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-line px-6 py-5">
        <Link to={home} aria-label={t('nav.home', 'Velvet Rope home')}>
          <Logo />
        </Link>
      </header>
      <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col justify-center px-6 py-24">
        <p className="eyebrow text-stone">{status}</p>
        <h1 className="display mt-4 text-4xl break-words sm:text-5xl">{heading}</h1>
        <p className="mt-6 text-lg text-stone">{text}</p>
        {/* The path below the headline, as ErrorContent shows it (UX review of 27 Nov, row 10). */}
        {notFound && path && (
          <p className="mt-4 leading-relaxed text-stone">
            {intl ? (
              intl.formatMessage({ id: 'notFound.address' }, { path: <code key="path" className="font-sans break-all [hyphens:none]">{path}</code> })
            ) : (
              <code className="font-sans break-all [hyphens:none]">{path}</code>
            )}
          </p>
        )}
        <p className="mt-10">
          <Link className="btn-primary" to={home}>
            {t('nav.backToStart', 'Back to the start page')}
          </Link>
        </p>
      </main>
    </div>
  );
}
