import { Outlet } from 'react-router';
import { SiteFooter } from '../components/site-footer.tsx';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';

export default function DefaultLayout() {
  return (
    <>
      <SkipLink />
      <SiteHeader banner />
      <main id="main">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
