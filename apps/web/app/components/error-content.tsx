import { useIntl } from 'react-intl';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { MessageScreen } from './message-screen.tsx';
import { isConnectionFailure } from '../lib/forms/connection.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

/**
 * The site's one error design, inside whichever frame the page has (header, footer and
 * language switch stay): 404 "Page not found" with the address below it when it is known
 * (spec §2's "Page Not Found: {path}", NotFoundAddress; its "Page Not Found" when a route's
 * middleware failed),
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
      title={notFound ? t(unprepared ? 'error.pageNotFound' : 'notFound.title') : t('error.internal')}
      text={t(notFound ? 'notFound.text' : offline ? 'error.connection' : 'error.generic')}
      actions={[{ label: t('nav.backToStart'), to: local('/') }]}
    >
      {notFound && path && <NotFoundAddress path={path} />}
    </MessageScreen>
  );
}

/**
 * The address that named no page, in a sentence below the headline (UX review of 27 Nov, row
 * 10): spec §2's "Page Not Found: {path}" is the headline and this line, so the headline is the
 * same for every unknown address, and the path — set as code, never hyphenated — may wrap
 * anywhere on a phone, but never right after one of its own hyphens, where a line ending in
 * "nie-" would read as a word hyphenated (Polish, 390 px): each hyphen is kept with the
 * character after it. The text stays the path, character for character (copying it works).
 */
function NotFoundAddress({ path }: { path: string }) {
  const intl = useIntl();
  const pieces = path.split(/(-+[^-]?)/).filter(Boolean);
  const code = (
    <code key="path" className="font-sans break-all [hyphens:none]">
      {pieces.map((piece, i) => (piece.startsWith('-') ? <span key={i} className="whitespace-nowrap">{piece}</span> : piece))}
    </code>
  );
  return <p className="mt-4 leading-relaxed opacity-80">{intl.formatMessage({ id: 'notFound.address' }, { path: code })}</p>;
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
