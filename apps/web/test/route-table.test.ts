import { LOCALES, PREFIXES } from '@velvet/i18n/locales';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import routes from '../app/routes.ts';
import { SCREENS } from '../app/screens.ts';
import { strayLanguageSegment } from '../app/lib/i18n/language-segment.ts';

interface Entry {
  id: string;
  path?: string;
  children?: Entry[];
}
const flatten = (entries: Entry[]): Entry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);
const table = routes as unknown as Entry[];
const asRouteObjects = (entries: Entry[]): RouteObject[] =>
  entries.map((e) => ({ id: e.id, path: e.path, ...(e.children ? { children: asRouteObjects(e.children) } : {}) }));
const objects = asRouteObjects(table);

/** An address of the screen: its parameters filled in. */
const addressOf = (path: string) => `/${path.replace(':slug?', '').replace(':code', 'WELCOME2026')}`.replace(/\/$/, '') || '/';

/** What React Router renders for a path: the leaf route's id, and whether the language segment turns it into a 404. */
function answer(pathname: string): { leaf: string | undefined; stray: boolean } {
  const matches = matchRoutes(objects, pathname);
  const leaf = matches?.at(-1);
  return { leaf: leaf?.route.id, stray: leaf ? strayLanguageSegment(leaf.params, pathname) : false };
}

describe('route table (one entry per screen, ADR 059)', () => {
  it('names every screen once, with unique ids, and far fewer routes than screens × languages', () => {
    const all = flatten(table);
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const screen of SCREENS) expect(ids.filter((id) => id === screen.name)).toHaveLength(1);
    expect(PREFIXES).toHaveLength(8);
    // One route a screen plus the layouts and doors, where ADR 004 had eight of each.
    expect(all.length).toBeLessThan(SCREENS.length * 2);
  });

  it('answers every screen under all eight prefixes with that screen', () => {
    for (const prefix of PREFIXES) {
      for (const screen of SCREENS) {
        const path = `${prefix ? `/${prefix}` : ''}${addressOf(screen.path)}`.replace(/(.)\/$/, '$1');
        expect(answer(path), path).toEqual({ leaf: screen.name, stray: false });
      }
    }
  });

  it('takes a single segment for the landing (its slug check decides) and any deeper unknown path for a 404', () => {
    expect(answer('/vip')).toEqual({ leaf: 'landing', stray: false });
    expect(answer('/de/vip')).toEqual({ leaf: 'landing', stray: false });
    expect(answer('/de/no-such-page')).toEqual({ leaf: 'landing', stray: false });
    expect(answer('/no/such/page').leaf).toBe('catch-all');
  });

  it('turns a first segment that names no language into a 404, wherever the rest would match', () => {
    for (const stray of ['xx', 'vip', 'lobby', 'EN', 'de-DE']) {
      for (const screen of SCREENS.filter((s) => s.path !== ':slug?')) {
        const path = `/${stray}${addressOf(screen.path)}`;
        const { leaf, stray: isStray } = answer(path);
        expect(isStray || leaf === 'catch-all', path).toBe(true);
      }
      expect(answer(`/${stray}/vip`).stray, `/${stray}/vip`).toBe(true);
    }
    for (const locale of LOCALES) expect(answer(`/${locale}/about-us`)).toEqual({ leaf: 'about-us', stray: false });
  });
});
