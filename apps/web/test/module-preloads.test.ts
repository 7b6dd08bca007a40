/** The page's module preloads go out at low priority (ADR 037), however the stream is cut. */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { lowPriorityModulePreloads } from '../app/lib/module-preloads.server.ts';

const PAGE =
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" href="/x.js"/><title>Zürich — café</title>' +
  '<link rel="modulepreload" href="/y.js" nonce="n"/></head><body><p>&lt;link rel="modulepreload" stays as written in the body: ü</p></body></html>';

async function through(chunks: Buffer[]): Promise<string> {
  return text(Readable.from(chunks).pipe(lowPriorityModulePreloads()));
}

describe('low-priority module preloads', () => {
  it('marks every module preload of the head, and nothing else, whatever the chunk boundaries', async () => {
    const bytes = Buffer.from(PAGE, 'utf8');
    const expected = PAGE.replace('<link rel="modulepreload" href="/x.js"', '<link rel="modulepreload" fetchpriority="low" href="/x.js"').replace(
      '<link rel="modulepreload" href="/y.js"',
      '<link rel="modulepreload" fetchpriority="low" href="/y.js"',
    );
    expect(await through([bytes])).toBe(expected);
    for (let size = 1; size <= 40; size++) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect(await through(chunks), `chunks of ${size} bytes`).toBe(expected);
    }
  });
});
