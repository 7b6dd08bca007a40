import { Outlet } from 'react-router';
import { RouteErrorContent } from '../components/error-content.tsx';
import { SiteFooter } from '../components/site-footer.tsx';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';
import { languageSegment } from '../lib/i18n/language-segment.ts';

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <>
      <SkipLink />
      <div className="flex min-h-screen flex-col">
        <SiteHeader />
        <main id="main" className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center px-6 py-20 sm:py-28">
          {children}
        </main>
      </div>
      <SiteFooter />
    </>
  );
}

/** A first segment that names no language is a 404 here, in the frame (ADR 059). */
export const middleware = [languageSegment];

export default function CenteredLayout() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** A page of this layout that failed (a 404 from its checks, an unexpected error) keeps the frame. */
export function ErrorBoundary() {
  return <Frame><RouteErrorContent /></Frame>;
}
