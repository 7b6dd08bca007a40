import { data } from 'react-router';
import type { Route } from './+types/not-found';
import { ErrorContent } from '../components/error-content.tsx';
import { pageMeta } from '../lib/page/meta.ts';

/** Unmatched paths and /error/404: "Page not found", status 404, inside the site's frame. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.notFound.title', description: 'meta.notFound.description', noIndex: true });

export default function NotFound() {
  return <ErrorContent status={404} />;
}
