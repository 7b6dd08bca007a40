import { isRouteErrorResponse, useRouteError } from 'react-router';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader, SkipLink } from './site-header.tsx';
import { RouteErrorContent } from './error-content.tsx';

/**
 * The centred frame (layouts/centered.tsx): header without the promotion band, the message in
 * the middle of the screen, the footer below.
 */
export function CenteredFrame({ children }: { children: React.ReactNode }) {
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

/** Whether the error a boundary shows is a 404. */
function useIsNotFound(): boolean {
  const error = useRouteError();
  return isRouteErrorResponse(error) && error.status === 404;
}

/**
 * A layout's error boundary. A page of the layout that failed keeps the layout's frame (an
 * unexpected error: `children` in `frame`); every 404 is in one frame, the centred one, whichever
 * layout's page said it — the catch-all's, an unknown landing slug or a stray language segment in
 * the landing's frame, one on the black door pages (issue 22, the review's leftovers).
 */
export function LayoutError({ frame: Frame, children }: { frame: (props: { children: React.ReactNode }) => React.ReactNode; children: React.ReactNode }) {
  if (useIsNotFound()) {
    return (
      <CenteredFrame>
        <RouteErrorContent />
      </CenteredFrame>
    );
  }
  return <Frame>{children}</Frame>;
}
