import { isRouteErrorResponse, useRouteError } from 'react-router';
import { MessageScreen } from './message-screen.tsx';
import { isConnectionFailure } from '../lib/forms/connection.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

/**
 * The site's one error design, inside whichever frame the page has (header, footer and
 * language switch stay): 404 "Page not found" (or spec §2's "Page Not Found: {path}" when a
 * route's check refused the page, and its "Page Not Found" when a route's middleware failed),
 * anything else "Internal Server Error" with the generic message; always a way back to the
 * start page.
 */
export function ErrorContent({
  status,
  path,
  unprepared = false,
  offline = false,
  inverse = false,
}: {
  status: number;
  path?: string | undefined;
  /** A route's middleware failed (route-middleware.ts): spec §2's "Page Not Found". */
  unprepared?: boolean;
  /** The browser's own request failed (no network): spec §8's connection message. */
  offline?: boolean;
  inverse?: boolean;
}) {
  const t = useT();
  const local = useLocalPath();
  const notFound = status === 404;
  return (
    <MessageScreen
      inverse={inverse}
      eyebrow={String(status)}
      title={notFound ? (path ? t('notFound.pathTitle', { path }) : t(unprepared ? 'error.pageNotFound' : 'notFound.title')) : t('error.internal')}
      text={t(notFound ? 'notFound.text' : offline ? 'error.connection' : 'error.generic')}
      actions={[{ label: t('nav.backToStart'), to: local('/') }]}
    />
  );
}


/** What an error thrown by a page's loader, action, guard or render says, as ErrorContent. */
export function RouteErrorContent({ inverse = false }: { inverse?: boolean }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const data = isRouteErrorResponse(error) ? (error.data as { path?: unknown; unprepared?: unknown } | null) : null;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <ErrorContent status={status} path={typeof data?.path === 'string' ? data.path : undefined} unprepared={data?.unprepared === true} offline={isConnectionFailure(error)} inverse={inverse} />
  );
}
