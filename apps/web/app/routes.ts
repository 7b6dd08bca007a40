/**
 * The route table: every screen of spec §2 once, with an optional language segment in front
 * (`:lang?/about-us` answers /about-us and /de/about-us), grouped by layout, plus a catch-all
 * 404. A new screen is one line in screens.ts. The segment must name one of the seven
 * languages: each layout's middleware answers anything else with a 404 (`languageSegment`;
 * docs/decisions/059-one-route-table-with-a-language-segment.md, superseding 004).
 */
import { type RouteConfig, layout, route } from '@react-router/dev/routes';
import { LAYOUT_FILES, type LayoutName, SCREENS } from './screens.ts';

const layoutNames = Object.keys(LAYOUT_FILES) as LayoutName[];
const inAnyLanguage = (path: string) => `:lang?/${path}`;

export default [
  route('healthz', 'routes/healthz.ts', { id: 'healthz' }),
  // The proof of work a public form's script solves (issue 12 §2, ADR 041).
  route('form-challenge', 'routes/form-challenge.ts', { id: 'form-challenge' }),
  // Social sign-up (ADR 010): one address each, the language travels in the transaction.
  route('auth/social/start', 'routes/auth-social-start.ts', { id: 'auth-social-start' }),
  route('auth/social/callback', 'routes/auth-social-callback.ts', { id: 'auth-social-callback' }),
  ...layoutNames.map((name) =>
    layout(LAYOUT_FILES[name], { id: `layout:${name}` }, [
      ...SCREENS.filter((s) => s.layout === name).map((s) => route(inAnyLanguage(s.path), s.file, { id: s.name })),
      ...(name === 'centered' ? [route(inAnyLanguage('*'), 'routes/not-found.tsx', { id: 'catch-all' })] : []),
    ]),
  ),
] satisfies RouteConfig;
