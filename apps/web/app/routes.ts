/**
 * The route table: every screen of spec §2 under each of the eight language prefixes,
 * grouped by layout, plus a catch-all 404 per prefix. Generated, so a new screen is one
 * line in screens.ts (see docs/decisions/004-generated-localized-routes.md).
 */
import { type RouteConfig, layout, route } from '@react-router/dev/routes';
import { PREFIXES } from '@velvet/i18n/locales';
import { LAYOUT_FILES, type LayoutName, SCREENS } from './screens.ts';

const layoutNames = Object.keys(LAYOUT_FILES) as LayoutName[];

export default [
  route('healthz', 'routes/healthz.ts', { id: 'healthz' }),
  // The proof of work a public form's script solves (issue 12 §2, ADR 041).
  route('form-challenge', 'routes/form-challenge.ts', { id: 'form-challenge' }),
  // Social sign-up (ADR 010): one address each, the language travels in the transaction.
  route('auth/social/start', 'routes/auth-social-start.ts', { id: 'auth-social-start' }),
  route('auth/social/callback', 'routes/auth-social-callback.ts', { id: 'auth-social-callback' }),
  ...PREFIXES.flatMap((prefix) => {
    const key = prefix || 'default';
    const join = (path: string) => [prefix, path].filter(Boolean).join('/');
    return [
      ...layoutNames.map((name) =>
        layout(LAYOUT_FILES[name], { id: `${key}:layout:${name}` }, [
          ...SCREENS.filter((s) => s.layout === name).map((s) =>
            route(join(s.path), s.file, { id: `${key}:${s.name}` }),
          ),
          ...(name === 'centered' ? [route(join('*'), 'routes/not-found.tsx', { id: `${key}:catch-all` })] : []),
        ]),
      ),
    ];
  }),
] satisfies RouteConfig;
