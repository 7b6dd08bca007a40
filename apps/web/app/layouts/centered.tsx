import { Outlet } from 'react-router';
import { RouteErrorContent } from '../components/error-content.tsx';
import { CenteredFrame as Frame } from '../components/centered-frame.tsx';
import { languageSegment } from '../lib/i18n/language-segment.ts';

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
