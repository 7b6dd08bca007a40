import { Outlet } from 'react-router';
import { LayoutError } from '../components/centered-frame.tsx';
import { RouteErrorContent } from '../components/error-content.tsx';
import { SiteFooter } from '../components/site-footer.tsx';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';
import { languageSegment } from '../lib/i18n/language-segment.ts';

/** Black ground with fine inclined lines: the club's door for applications and refusals. */
function Frame({ children }: { children: React.ReactNode }) {
  return (
    <>
      <SkipLink />
      <div className="inclined-lines flex min-h-screen flex-col bg-ink text-paper">
        <SiteHeader inverse />
        <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col justify-center px-6 py-20 sm:py-28">
          {children}
        </main>
      </div>
      <SiteFooter />
    </>
  );
}

/** A first segment that names no language is a 404 here, in the frame (ADR 059). */
export const middleware = [languageSegment];

export default function BlackInclinedLinesLayout() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** A failed page keeps the frame; a 404 is in the centred one, like every 404 (components/centered-frame.tsx). */
export function ErrorBoundary() {
  return <LayoutError frame={Frame}><RouteErrorContent inverse /></LayoutError>;
}
