import { data, useLocation } from 'react-router';
import type { Route } from './+types/not-found';
import { ErrorContent } from '../components/error-content.tsx';
import { readablePath } from '../lib/i18n/i18n.ts';
import { pageMeta } from '../lib/page/meta.ts';

/** Unmatched paths and /error/404: "Page not found", status 404, inside the site's frame. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.notFound.title', description: 'meta.notFound.description', noIndex: true });

/** A nested unknown address names its path like an unknown campaign's (UX review of 27 Nov, row 10); /error/404 itself names none. */
export default function NotFound() {
  const { pathname } = useLocation();
  return <ErrorContent status={404} path={/\/error\/404\/?$/.test(pathname) ? undefined : readablePath(pathname)} />;
}
