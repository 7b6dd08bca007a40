import { describe, expect, it } from 'vitest';
import { blackFriday, promoFor } from '../app/lib/promo.ts';

describe('seasonal promotion', () => {
  it('finds Black Friday as the day after the fourth Thursday of November', () => {
    expect(blackFriday(2026).toISOString().slice(0, 10)).toBe('2026-11-27');
    expect(blackFriday(2025).toISOString().slice(0, 10)).toBe('2025-11-28');
  });

  it('runs Black Week around it and Cyber Monday after it', () => {
    expect(promoFor(new Date('2026-11-22T12:00:00Z'))).toBeNull();
    expect(promoFor(new Date('2026-11-23T00:00:00Z'))).toBe('blackWeek');
    expect(promoFor(new Date('2026-11-27T23:59:00Z'))).toBe('blackFriday');
    expect(promoFor(new Date('2026-11-29T10:00:00Z'))).toBe('blackWeek');
    expect(promoFor(new Date('2026-11-30T10:00:00Z'))).toBe('cyberMonday');
    expect(promoFor(new Date('2026-12-01T10:00:00Z'))).toBeNull();
  });
});
