import { Outlet } from 'react-router';
import { LayoutError } from '../components/centered-frame.tsx';
import { RouteErrorContent } from '../components/error-content.tsx';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';
import { languageSegment } from '../lib/i18n/language-segment.ts';

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <>
      <SkipLink />
      <div className="flex min-h-screen flex-col">
        <SiteHeader />
        <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col justify-center px-6 py-20">
          {children}
        </main>
      </div>
    </>
  );
}

/** A first segment that names no language is a 404 here, in the frame (ADR 059). */
export const middleware = [languageSegment];

export default function NoFooterLayout() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** A failed page keeps the frame; a 404 is in the centred one, like every 404 (components/centered-frame.tsx). */
export function ErrorBoundary() {
  return <LayoutError frame={Frame}><RouteErrorContent /></LayoutError>;
}
