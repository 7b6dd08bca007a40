import { Outlet, useMatches } from 'react-router';
import { LayoutError } from '../components/centered-frame.tsx';
import { RouteErrorContent } from '../components/error-content.tsx';
import { SiteFooter } from '../components/site-footer.tsx';
import { SiteHeader, SkipLink } from '../components/site-header.tsx';
import { isOnlyMobileLanding } from '../lib/landing/landing-variants.ts';
import { languageSegment } from '../lib/i18n/language-segment.ts';

/**
 * The landing page's frame. In the only-mobile landing layout (`/app`) the whole page —
 * banner, header, content, footer — is a phone screen, whatever the window's width: a
 * phone-width column on a quiet ground, where every breakpoint stays at its phone value
 * (`.phone-frame`, app.css; ADR 024). The wrappers are always there, so a navigation between
 * layouts changes classes only and never remounts the page.
 */
function Frame({ children }: { children: React.ReactNode }) {
  const phone = useMatches().some((match) => isOnlyMobileLanding(match.loaderData));
  return (
    <div className={phone ? 'min-h-screen bg-mist' : undefined}>
      <div className={phone ? 'phone-frame mx-auto min-h-screen max-w-[27rem] bg-paper shadow-[0_0_0_1px_var(--color-line)]' : undefined} data-testid="page-frame">
        <SkipLink />
        <SiteHeader banner />
        <main id="main">
          {children}
        </main>
        <SiteFooter />
      </div>
    </div>
  );
}

/** A first segment that names no language is a 404 here, in the frame (ADR 059). */
export const middleware = [languageSegment];

export default function DefaultLayout() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** A failed page keeps the frame; a 404 is in the centred one, like every 404 (components/centered-frame.tsx). */
export function ErrorBoundary() {
  return <LayoutError frame={Frame}><div className="mx-auto max-w-3xl px-6 py-20 sm:py-28"><RouteErrorContent /></div></LayoutError>;
}
