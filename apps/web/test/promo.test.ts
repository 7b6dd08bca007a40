/**
 * The promo calendar as the club lives it (ADR 021): Black Week, Black Friday and Cyber Monday
 * start and end at midnight in Berlin — the same instant for every member — whatever the
 * server's or the browser's own time zone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, clubDay, startOfClubDay } from '../app/lib/calendar/club-time.ts';
import { blackFriday, nextBannerChange, promoAt, promoSeason, seasonsAround } from '../app/lib/calendar/promo.ts';

const at = (iso: string) => new Date(iso).getTime();
const iso = (instant: number) => new Date(instant).toISOString();

/** Every test here runs with the process in a far-away time zone: nothing may depend on it. */
let zone: string | undefined;
beforeEach(() => {
  zone = process.env.TZ;
  process.env.TZ = 'Pacific/Kiritimati';
});
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('Black Friday', () => {
  it.each([
    [2024, 29],
    [2025, 28],
    [2026, 27],
    [2027, 26],
    [2028, 24], // 1 November 2028 is a Wednesday: the fourth Thursday is the 23rd
    [2029, 23], // 1 November 2029 is a Thursday: the 22nd is the fourth
    [2030, 29], // 1 November 2030 is a Friday: the fourth Thursday is the 28th
  ])('in %i is on %i November: the day after the fourth Thursday', (year, day) => {
    expect(blackFriday(year)).toEqual({ year, month: 11, day });
  });
});

describe('the season of 2026, in Berlin days', () => {
  it('runs Black Week Monday to Sunday around Black Friday, then Cyber Monday', () => {
    expect(promoSeason(2026).map((s) => ({ promo: s.promo, from: iso(s.from), until: iso(s.until), endsAt: iso(s.endsAt) }))).toEqual([
      // Monday 23 November 00:00 in Berlin (CET, UTC+1) is 22 November 23:00 UTC.
      { promo: 'blackWeek', from: '2026-11-22T23:00:00.000Z', until: '2026-11-26T23:00:00.000Z', endsAt: '2026-11-29T23:00:00.000Z' },
      { promo: 'blackFriday', from: '2026-11-26T23:00:00.000Z', until: '2026-11-27T23:00:00.000Z', endsAt: '2026-11-27T23:00:00.000Z' },
      { promo: 'blackWeek', from: '2026-11-27T23:00:00.000Z', until: '2026-11-29T23:00:00.000Z', endsAt: '2026-11-29T23:00:00.000Z' },
      { promo: 'cyberMonday', from: '2026-11-29T23:00:00.000Z', until: '2026-11-30T23:00:00.000Z', endsAt: '2026-11-30T23:00:00.000Z' },
    ]);
  });

  it.each([
    ['Sunday before, 23:59:59.999 in Berlin', '2026-11-22T22:59:59.999Z', null],
    ['Monday, midnight in Berlin', '2026-11-22T23:00:00.000Z', 'blackWeek'],
    ['Thursday, 23:59:59.999 in Berlin', '2026-11-26T22:59:59.999Z', 'blackWeek'],
    ['Friday, midnight in Berlin (still Thursday in UTC)', '2026-11-26T23:00:00.000Z', 'blackFriday'],
    ['Friday, 23:30 in Berlin', '2026-11-27T22:30:00.000Z', 'blackFriday'],
    ['Saturday, 00:30 in Berlin (still Friday in UTC)', '2026-11-27T23:30:00.000Z', 'blackWeek'],
    ['Sunday, 23:59:59.999 in Berlin', '2026-11-29T22:59:59.999Z', 'blackWeek'],
    ['Monday after, midnight in Berlin', '2026-11-29T23:00:00.000Z', 'cyberMonday'],
    ['Monday after, 23:59:59.999 in Berlin', '2026-11-30T22:59:59.999Z', 'cyberMonday'],
    ['Tuesday, midnight in Berlin (still Monday in UTC)', '2026-11-30T23:00:00.000Z', null],
    ['a day in June', '2026-06-15T10:00:00.000Z', null],
  ])('%s → %s', (_, instant, promo) => {
    expect(promoAt(at(instant)).current?.promo ?? null).toBe(promo);
  });

  it('names when each stretch ends and what comes next', () => {
    expect(promoAt(at('2026-11-24T17:47:30Z'))).toEqual({
      current: { promo: 'blackWeek', endsAt: at('2026-11-29T23:00:00Z') },
      changesAt: at('2026-11-26T23:00:00Z'),
      next: { promo: 'blackFriday', startsAt: at('2026-11-26T23:00:00Z') },
    });
    expect(promoAt(at('2026-11-27T17:48:00Z'))).toEqual({
      current: { promo: 'blackFriday', endsAt: at('2026-11-27T23:00:00Z') },
      changesAt: at('2026-11-27T23:00:00Z'),
      next: { promo: 'blackWeek', startsAt: at('2026-11-27T23:00:00Z') },
    });
    expect(promoAt(at('2026-11-30T08:15:00Z'))).toEqual({
      current: { promo: 'cyberMonday', endsAt: at('2026-11-30T23:00:00Z') },
      changesAt: at('2026-11-30T23:00:00Z'),
      next: { promo: 'blackWeek', startsAt: at('2027-11-21T23:00:00Z') },
    });
  });

  it('between seasons: no promotion, and the next Black Week (this year’s or next year’s)', () => {
    expect(promoAt(at('2026-06-15T10:00:00Z'))).toEqual({
      current: null,
      changesAt: at('2026-11-22T23:00:00Z'),
      next: { promo: 'blackWeek', startsAt: at('2026-11-22T23:00:00Z') },
    });
    // New Year's Eve: 2027 in Berlin already, 2026 in UTC.
    expect(promoAt(at('2026-12-31T23:30:00Z')).next).toEqual({ promo: 'blackWeek', startsAt: at('2027-11-21T23:00:00Z') });
    expect(promoAt(at('2027-01-01T00:30:00Z')).next).toEqual({ promo: 'blackWeek', startsAt: at('2027-11-21T23:00:00Z') });
  });

  it('gives the same answers from the seasons the server sent, however long the page has been open', () => {
    // The root loader's seasons, from a page rendered on 29 November 2026 (ADR 068).
    const sent = JSON.parse(JSON.stringify(seasonsAround(at('2026-11-29T09:00:00Z')))) as ReturnType<typeof seasonsAround>;
    for (const instant of ['2026-11-29T09:00:00Z', '2026-11-30T23:00:00Z', '2026-12-31T23:30:00Z', '2027-11-26T23:30:00Z', '2027-11-30T08:15:00Z', '2028-06-15T10:00:00Z', '2029-11-23T12:00:00Z']) {
      expect(promoAt(at(instant), sent), instant).toEqual(promoAt(at(instant)));
      expect(nextBannerChange(at(instant), sent), instant).toBe(nextBannerChange(at(instant)));
    }
  });
});

describe('the club’s days across daylight saving time', () => {
  it('begins a day at midnight in Berlin in winter (UTC+1) and in summer (UTC+2)', () => {
    expect(iso(startOfClubDay({ year: 2026, month: 1, day: 15 }))).toBe('2026-01-14T23:00:00.000Z');
    expect(iso(startOfClubDay({ year: 2026, month: 7, day: 15 }))).toBe('2026-07-14T22:00:00.000Z');
  });

  it('has a 23-hour day when the clocks go forward and a 25-hour one when they go back', () => {
    const length = (day: { year: number; month: number; day: number }) => (startOfClubDay(addDays(day, 1)) - startOfClubDay(day)) / 3_600_000;
    expect(length({ year: 2026, month: 3, day: 29 })).toBe(23);
    expect(length({ year: 2026, month: 10, day: 25 })).toBe(25);
    expect(length({ year: 2026, month: 11, day: 27 })).toBe(24);
    expect(iso(startOfClubDay({ year: 2026, month: 3, day: 30 }))).toBe('2026-03-29T22:00:00.000Z');
    expect(iso(startOfClubDay({ year: 2026, month: 10, day: 26 }))).toBe('2026-10-25T23:00:00.000Z');
  });

  it('reads the Berlin day of an instant on both sides of midnight and of a clock change', () => {
    expect(clubDay(at('2026-11-26T22:59:59.999Z'))).toEqual({ year: 2026, month: 11, day: 26 });
    expect(clubDay(at('2026-11-26T23:00:00.000Z'))).toEqual({ year: 2026, month: 11, day: 27 });
    expect(clubDay(at('2026-03-29T21:59:59.999Z'))).toEqual({ year: 2026, month: 3, day: 29 });
    expect(clubDay(at('2026-03-29T22:00:00.000Z'))).toEqual({ year: 2026, month: 3, day: 30 });
    expect(clubDay(at('2026-12-31T23:00:00.000Z'))).toEqual({ year: 2027, month: 1, day: 1 });
  });

  it('would keep the season right if Black Friday ever fell in summer time', () => {
    // The same rules in a zone with summer time in late November (Santiago, UTC-3 then).
    const friday = startOfClubDay({ year: 2026, month: 11, day: 27 }, 'America/Santiago');
    expect(iso(friday)).toBe('2026-11-27T03:00:00.000Z');
    expect(clubDay(friday, 'America/Santiago')).toEqual({ year: 2026, month: 11, day: 27 });
  });
});
