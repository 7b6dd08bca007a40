import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  isRouteErrorResponse,
  redirect,
  useRouteError,
  useRouteLoaderData,
  type MiddlewareFunction,
} from 'react-router';
import { RawIntlProvider } from 'react-intl';
import jostUrl from '@fontsource-variable/jost/files/jost-latin-wght-normal.woff2?url';
import displayFontUrl from '@fontsource-variable/playfair-display/files/playfair-display-latin-wght-normal.woff2?url';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { expandAcqParams } from './lib/acq-params.ts';
import { startAnalytics } from './lib/analytics/analytics.ts';
import { consentPage } from './lib/consent/consent.server.ts';
import { consentModeSnippet } from './lib/consent/consent-shared.ts';
import { identifiedCustomer } from './lib/auth-cookie.server.ts';
import { localeContext, requestInfoContext } from './lib/page/context.ts';
import { preloadFonts } from './lib/page/font-preloads.ts';
import { ERROR_REPORTING_META } from './lib/error-reporting/error-reporting.ts';
import { ExperimentsProvider } from './lib/experiments/experiments.tsx';
import { experimentsData } from './lib/experiments/experiments.server.ts';
import { resolveLocale, splitLocalePath } from './lib/i18n/i18n.ts';
import { canonicalPath } from './lib/i18n/canonical-path.server.ts';
import { getIntl, pageIntl } from './lib/i18n/intl.ts';
import { seasonsAround } from './lib/calendar/promo.ts';
import { pageMeta } from './lib/page/meta.ts';
import {
  PAGE_MESSAGES_ID,
  browserMessages,
  loadCatalog,
  messagesVersion,
  missingUntilLoaded,
  pageBlockText,
  pageCatalogReady,
  recordPageMessages,
  recording,
  onServer,
  subscribeMessages,
} from './lib/i18n/messages.ts';
import { sameSitePath } from './lib/same-site-path.ts';
import { DocumentSessionIdContext } from './lib/page/document-session.ts';
import { SESSION_META, documentSessionId } from './lib/page/page-load.ts';
import { pageLoadMiddleware } from './lib/page/page-load.server.ts';
import { webViewFromRequest } from './lib/web-view/web-view.server.ts';
import { loadAcquisitionDefaults, setRuntimeConfig } from './lib/page/runtime-config.ts';
import { clubDay } from './lib/calendar/club-time.ts';
import type { RootData } from './lib/page/root-data.ts';
import { ErrorScreen } from './components/error-screen.tsx';
import { keepDataWhenLost } from './lib/forms/connection.ts';

/** Every request: unpack acqParams, then settle the language for everything below. */
const localeMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const url = new URL(request.url);
  // Redirects built from the request's path stay on the site (ADR 028): `//evil.example/?acqParams=…` goes to `/evil.example/`.
  const expanded = expandAcqParams(url);
  if (expanded) throw redirect(sameSitePath(expanded));
  // Paths match case-insensitively, prefixes too: /DE/about-us is the German page, at its own address, and so is /REGISTRATION/DENY.
  const canonical = canonicalPath(url.pathname);
  if (canonical) throw redirect(sameSitePath(`${canonical}${url.search}`), 301);
  context.set(
    localeContext,
    resolveLocale({
      pathname: url.pathname,
      cookieHeader: request.headers.get('cookie'),
      langParam: url.searchParams.get('lang'),
      acceptLanguage: request.headers.get('accept-language'),
    }),
  );
  const response = await next();
  const { cookie } = webViewFromRequest(request, context);
  if (cookie) response.headers.append('Set-Cookie', cookie);
  return response;
};

/** First the page load (its session id and path, ADR 022), then the language. */
export const middleware: MiddlewareFunction<Response>[] = [pageLoadMiddleware, localeMiddleware];

/**
 * A navigation in the browser waits for the whole client catalog of the language it goes to
 * (ADR 038): the first page brought only the messages it rendered.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ request }, next) => {
    const { prefix } = splitLocalePath(new URL(request.url).pathname);
    await (prefix ? loadCatalog(prefix) : pageCatalogReady());
    return next();
  },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { locale, prefix } = context.get(localeContext);
  const info = context.get(requestInfoContext);
  // The calendar's instant (ADR 021); expiry and caching keep to the real clock.
  const now = info.calendarNow.getTime();
  return data(
    {
      locale,
      prefix,
      publicUrl: info.publicUrl,
      year: clubDay(now).year,
      now,
      // The top banner's promotions around now, as instants: the browser needs no time-zone rules (ADR 068).
      promoSeasons: seasonsAround(now),
      runtime: {
        environment: info.environment,
        gtmContainerId: info.gtmContainerId,
        acqBackendGraphqlURL: `${info.publicApiUrl}/graphql`,
      },
      webView: (({ active, returnUrl }) => ({ active, returnUrl }))(webViewFromRequest(request, context)),
      // Consent records expire by the real clock, not the calendar's (ADR 021).
      consent: consentPage(request, context, new Date(), await identifiedCustomer(request, context)),
      experiments: await experimentsData(request, context),
      errorReporting: info.errors.browserEndpoint ? { endpoint: info.errors.browserEndpoint, environment: info.environment } : null,
    } satisfies RootData,
    // An unprefixed page speaks the visitor's language: caches must keep the variants apart.
    { headers: prefix ? {} : { Vary: 'Cookie, Accept-Language' } },
  );
}

/** A form the visitor's connection lost keeps the page's data: nothing revalidates (lib/forms/connection.ts). */
export const shouldRevalidate = keepDataWhenLost;

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/** Only used when a page fails: the leaf page's own meta describes every other page. */
export const meta: Route.MetaFunction = (args) => (args.error ? pageMeta(args, { title: 'meta.error.title' }) : []);

export const links: Route.LinksFunction = () => [
  { rel: 'preload', href: jostUrl, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'preload', href: displayFontUrl, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  // A stylesheet with a precedence is one of React's resources: it goes into <head> before every
  // preload React hoists (the modulepreloads of <Scripts>), so the first paint never waits behind the JavaScript.
  { rel: 'stylesheet', href: stylesheet, precedence: 'default' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>('root') as RootData | undefined;
  const locale = root?.locale ?? 'en';
  preloadFonts(locale);
  const sessionId = useContext(DocumentSessionIdContext) ?? (typeof document === 'undefined' ? null : documentSessionId());
  // Decided by the first page load (ADR 011): later revalidations never add or drop the script.
  const [cmp] = useState(() => root?.consent.cmp ?? null);
  // The server's render notes every message id it formats: the page carries those (ADR 038).
  const [used] = useState(() => new Set<string>());
  if (typeof window === 'undefined' && root) recordPageMessages(root, used);
  useSyncExternalStore(subscribeMessages, messagesVersion, messagesVersion);
  const intl = !root
    ? null
    : typeof window === 'undefined'
      ? pageIntl(root.locale, recording(onServer().catalog(root.locale), used))
      : getIntl(root.locale, browserMessages(root.locale), missingUntilLoaded(root.locale));
  const page = intl ? <RawIntlProvider value={intl}>{children}</RawIntlProvider> : children;
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        {/* Before any other script: the data layer and Google Consent Mode defaults (all denied). */}
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: consentModeSnippet(cmp) }} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0a0a0a" />
        {/* The id this page load's API calls used, when its loaders made any (ADR 022, 053): the browser goes on with it. */}
        {sessionId && <meta name={SESSION_META} content={sessionId} />}
        {root?.errorReporting && <meta name={ERROR_REPORTING_META} content={root.errorReporting.endpoint} data-environment={root.errorReporting.environment} />}
        <Meta />
        <Links />
      </head>
      <body>
        {root && (
          // Spec §8 "JavaScript disabled": forms still work without it (progressive enhancement),
          // but the consent manager, live updates and copy buttons need it.
          <noscript>
            <p className="bg-mist px-6 py-3 text-center text-sm text-ink">{intl?.formatMessage({ id: 'error.javascript' })}</p>
          </noscript>
        )}
        {page}
        {root && <PageMessages locale={root.locale} used={used} />}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** The page's messages as a JSON data block (never run), written after the page so it holds every id the page formatted. */
function PageMessages({ locale, used }: { locale: RootData['locale']; used: Set<string> }) {
  const text = typeof window === 'undefined' ? onServer().pageBlock(locale, used) : pageBlockText();
  return <script type="application/json" id={PAGE_MESSAGES_ID} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: text }} />;
}

export default function App({ loaderData }: Route.ComponentProps) {
  const initial = loaderData.runtime;
  useEffect(() => {
    // After hydration: the language's whole catalog, for what the page shows later (ADR 038).
    void pageCatalogReady();
  }, []);
  const { cmp, tagManagerScriptUrl } = loaderData.consent;
  useEffect(() => {
    void loadAcquisitionDefaults(initial).then(setRuntimeConfig);
  }, [initial]);
  useEffect(() => {
    startAnalytics({ cmpOnPage: cmp !== null, tagManagerScriptUrl });
  }, [cmp, tagManagerScriptUrl]);
  return (
    <ExperimentsProvider data={loaderData.experiments}>
      <Outlet />
    </ExperimentsProvider>
  );
}

/** The framework error page: "Page Not Found" for 404, "Internal Server Error" otherwise. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const path =
    isRouteErrorResponse(error) && typeof (error.data as { path?: unknown } | null)?.path === 'string'
      ? (error.data as { path: string }).path
      : undefined;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorScreen status={status} path={path} />;
}
