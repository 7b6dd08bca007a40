import { Outlet } from 'react-router';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';

export default function NoFooterLayout() {
  return (
    <>
      <SkipLink />
      <div className="flex min-h-screen flex-col">
        <SiteHeader />
        <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col justify-center px-6 py-20">
          <Outlet />
        </main>
      </div>
    </>
  );
}
