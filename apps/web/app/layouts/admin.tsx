import { Outlet } from 'react-router';
import { RouteErrorContent } from '../components/error-content.tsx';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';
import { languageSegment } from '../lib/i18n/language-segment.ts';

/**
 * The console's frame: a work surface, not a shop window (UX review of 27 Nov, row 15). The
 * club's black ground and header, a column wide enough for its tables (72 rem), starting at the
 * top, and no shop footer.
 */
function Frame({ children }: { children: React.ReactNode }) {
  return (
    <>
      <SkipLink />
      <div className="flex min-h-screen flex-col bg-ink text-paper">
        <SiteHeader inverse shopSignIn={false} />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-6 pt-12 pb-24 sm:pt-16">
          {children}
        </main>
      </div>
    </>
  );
}

/** A first segment that names no language is a 404 here, in the frame (ADR 059). */
export const middleware = [languageSegment];

export default function AdminLayout() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** A console page that failed keeps the frame. */
export function ErrorBoundary() {
  return <Frame><RouteErrorContent inverse /></Frame>;
}
