import { PREFIXES } from '@velvet/i18n/locales';
import { describe, expect, it } from 'vitest';
import routes from '../app/routes.ts';
import { SCREENS } from '../app/screens.ts';

interface Entry {
  id?: string;
  path?: string;
  children?: Entry[];
}
const flatten = (entries: Entry[]): Entry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);

describe('route table', () => {
  const all = flatten(routes as Entry[]);
  const paths = all.map((e) => e.path).filter((p): p is string => p !== undefined);

  it('has every screen under all eight prefixes, with unique ids', () => {
    for (const prefix of PREFIXES) {
      for (const screen of SCREENS) {
        expect(paths).toContain([prefix, screen.path].filter(Boolean).join('/'));
      }
      expect(paths).toContain([prefix, '*'].filter(Boolean).join('/'));
    }
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(PREFIXES).toHaveLength(8);
  });
});
