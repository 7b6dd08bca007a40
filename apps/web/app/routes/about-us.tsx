import { Link } from 'react-router';
import type { Route } from './+types/about-us';
import { PageIntro } from '../components/page-intro.tsx';
import { pageMeta } from '../lib/page/meta.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.aboutUs.title', description: 'meta.aboutUs.description' });

export default function AboutUs() {
  const t = useT();
  const path = useLocalPath();
  return (
    <article>
      <PageIntro title={t('about.title')} lead={t('about.lead')} />
      <div className="mt-10 space-y-6 text-lg leading-relaxed">
        <p>{t('about.p1')}</p>
        <p>{t('about.p2')}</p>
        <p>{t('about.p3')}</p>
      </div>
      <p className="mt-12">
        <Link className="btn-outline" to={path('/stores')}>{t('about.storesLink')}</Link>
      </p>
    </article>
  );
}
