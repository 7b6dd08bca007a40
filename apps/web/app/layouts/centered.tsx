import { Outlet } from 'react-router';
import { SiteFooter } from '../components/site-footer.tsx';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';

export default function CenteredLayout() {
  return (
    <>
      <SkipLink />
      <div className="flex min-h-screen flex-col">
        <SiteHeader />
        <main id="main" className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center px-6 py-20 sm:py-28">
          <Outlet />
        </main>
      </div>
      <SiteFooter />
    </>
  );
}
