/**
 * The club's calendar (ADR 021): calendar days are days in the club's time zone, so a day —
 * and a promotion — starts and ends at the same instant for every member, wherever the
 * server or the visitor's browser is. Pure: it reads no clock and not the machine's time
 * zone, only the time-zone rules of Intl (the same tz database on the server and in browsers).
 */
import { CLUB_TIME_ZONE } from '@velvet/i18n/locales';

/** The header that sets a request's calendar instant when TEST_CLOCK is on (ADR 021, server/test-clock.ts). */
export const TEST_NOW_HEADER = 'x-test-now';

export interface CalendarDay {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

const HOUR_MS = 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading of `instant` in `timeZone`, as if that reading were UTC (milliseconds dropped). */
function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(new Date(instant))) parts[type] = Number(value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
}

/** How far `timeZone` is ahead of UTC at `instant` (CET: one hour, CEST: two). */
function offsetAt(instant: number, timeZone: string): number {
  return wallClock(instant, timeZone) - Math.floor(instant / 1000) * 1000;
}

/** The calendar day `instant` falls on in the club's time zone. */
export function clubDay(instant: number, timeZone: string = CLUB_TIME_ZONE): CalendarDay {
  const wall = new Date(wallClock(instant, timeZone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/**
 * The instant a calendar day begins in the club's time zone. Days that do not exist in the
 * Gregorian calendar roll over as Date.UTC does (30 February is 2 March). Midnight exists
 * on every day in Europe (clocks change at 02:00 and 03:00), so DST days begin at 00:00 too;
 * they are 23 or 25 hours long.
 */
export function startOfClubDay({ year, month, day }: CalendarDay, timeZone: string = CLUB_TIME_ZONE): number {
  const wall = Date.UTC(year, month - 1, day);
  // The offset at the guess, then at the corrected instant: right on both sides of a clock change.
  const guess = wall - offsetAt(wall - 12 * HOUR_MS, timeZone);
  return wall - offsetAt(guess, timeZone);
}

/** `day` moved by `days` calendar days (across month and year ends). */
export function addDays({ year, month, day }: CalendarDay, days: number): CalendarDay {
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday, as Date#getUTCDay. */
export function weekday({ year, month, day }: CalendarDay): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}
