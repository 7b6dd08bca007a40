/** The page's module preloads go out at low priority (ADR 037). */
import { describe, expect, it } from 'vitest';
import { lowPriorityModulePreloads } from '../app/lib/page/module-preloads.server.ts';

const PAGE =
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" href="/x.js"/><title>Zürich — café</title>' +
  '<link rel="modulepreload" href="/y.js"/></head><body><p>&lt;link rel="modulepreload" stays as written in the body: ü</p></body></html>';

describe('low-priority module preloads', () => {
  it('marks every module preload of the head, and nothing else', () => {
    expect(lowPriorityModulePreloads(PAGE)).toBe(
      PAGE.replace('<link rel="modulepreload" href="/x.js"', '<link rel="modulepreload" fetchpriority="low" href="/x.js"').replace(
        '<link rel="modulepreload" href="/y.js"',
        '<link rel="modulepreload" fetchpriority="low" href="/y.js"',
      ),
    );
  });
});
