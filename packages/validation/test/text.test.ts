import { describe, expect, it } from 'vitest';
import { containsNul, hasControlCharacters } from '../src/text.ts';

describe('control characters', () => {
  it('finds C0 controls and DEL, but not tab, line feed, carriage return or other text', () => {
    expect(['a\u0000b', '\u0001', 'x\u001f', '\u007f', 'a\u000bb'].map(hasControlCharacters)).toEqual([true, true, true, true, true]);
    expect(['', 'a\tb', 'a\nb\r\n', 'Zoë 🙂', 'admin@velvetrope.example'].map(hasControlCharacters)).toEqual([false, false, false, false, false]);
  });

  it('finds U+0000 in any string of a nested value, keys included', () => {
    expect(containsNul({ events: [{ name: 'landing', code: 'AB\u0000' }] })).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(containsNul(['a', ['b', ['c\u0000']]])).toBe(true);
    expect(containsNul({ events: [{ name: 'landing', count: 3, ok: true, none: null }] })).toBe(false);
    expect(containsNul(null)).toBe(false);
  });
});
