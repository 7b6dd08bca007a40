import { Link, data } from 'react-router';
import type { Route } from './+types/not-found';
import { PageIntro } from '../components/page-intro.tsx';
import { pageMeta } from '../lib/meta.ts';
import { useLocalPath, useT } from '../lib/use-root.ts';

/** Unmatched paths and /error/404: "Page not found", status 404, inside the site's frame. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.notFound.title', description: 'meta.notFound.description', noIndex: true });

export default function NotFound() {
  const t = useT();
  const path = useLocalPath();
  return (
    <div>
      <PageIntro eyebrow="404" title={t('notFound.title')} lead={t('notFound.text')} />
      <p className="mt-10">
        <Link className="btn-primary" to={path('/')}>{t('nav.backToStart')}</Link>
      </p>
    </div>
  );
}
