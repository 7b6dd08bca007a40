/**
 * The seasonal promotions as the club lives them (ADR 021): Black Week runs from the Monday
 * before Black Friday to the Sunday after it, Black Friday — the day after the fourth Thursday
 * of November — takes the banner on its own day, and Cyber Monday follows Black Week. Days are
 * the club's (Europe/Berlin): a promotion ends at midnight in Berlin, the same instant for every
 * member in the 28 countries. Pure: the caller supplies the instant (the server's clock, a
 * test's injected one, or the browser's ticking on from the server's).
 */
import { type CalendarDay, addDays, startOfClubDay, weekday } from './club-time.ts';
import { nextCountdownChange } from './countdown.ts';

type Promo = 'blackWeek' | 'blackFriday' | 'cyberMonday';

/** One stretch of the banner: `promo` is shown from `from` until `until`; the promotion itself ends at `endsAt`. */
export interface PromoStretch {
  promo: Promo;
  from: number;
  until: number;
  /** When the named promotion ends: the countdown's zero (Black Week's stretch before Black Friday ends with the week). */
  endsAt: number;
}

export interface PromoState {
  /** The promotion the banner shows at the instant, or null between seasons. */
  current: { promo: Promo; endsAt: number } | null;
  /** When the banner shows something else: the end of this stretch, or the start of the next promotion. */
  changesAt: number;
  /** What the banner shows next: the promotion of the next stretch (after Cyber Monday, next year's Black Week). */
  next: { promo: Promo; startsAt: number };
}

/** Black Friday of `year`: the day after the fourth Thursday of November. */
export function blackFriday(year: number): CalendarDay {
  const firstThursday = 1 + ((4 - weekday({ year, month: 11, day: 1 }) + 7) % 7);
  return { year, month: 11, day: firstThursday + 21 + 1 };
}

/** The season of `year`, in order, as instants (each stretch starts and ends at a Berlin midnight). */
export function promoSeason(year: number): PromoStretch[] {
  const friday = blackFriday(year);
  const at = (days: number) => startOfClubDay(addDays(friday, days));
  const weekEnds = at(3); // Sunday after Black Friday, 24:00
  return [
    { promo: 'blackWeek', from: at(-4), until: at(0), endsAt: weekEnds },
    { promo: 'blackFriday', from: at(0), until: at(1), endsAt: at(1) },
    { promo: 'blackWeek', from: at(1), until: weekEnds, endsAt: weekEnds },
    { promo: 'cyberMonday', from: weekEnds, until: at(4), endsAt: at(4) },
  ];
}

const seasons = new Map<number, PromoStretch[]>();
function seasonOf(year: number): PromoStretch[] {
  let season = seasons.get(year);
  if (!season) seasons.set(year, (season = promoSeason(year)));
  return season;
}

/**
 * The stretches `promoAt` looks in around `instant`: the season of its UTC year and the next
 * one's. Every season lies in late November, far from any year's end: an instant of UTC year Y
 * is after season Y-1, and always before the end of season Y+1. The root loader sends them to
 * the browser (ADR 068): computing them needs the club's time zone, and so `Intl.DateTimeFormat`,
 * whose first use makes the browser list ICU's locales in the middle of hydration.
 */
export function seasonsAround(instant: number): PromoStretch[] {
  const year = new Date(instant).getUTCFullYear();
  return [...seasonOf(year), ...seasonOf(year + 1)];
}

/**
 * The promotion at `instant` (milliseconds since the epoch), when it ends, and what comes next.
 * @param stretches `seasonsAround` an instant near this one (the server's, for a page that has
 *   been open a while); computed here when the instant has left them behind.
 */
export function promoAt(instant: number, stretches: readonly PromoStretch[] = seasonsAround(instant)): PromoState {
  let around = stretches;
  let index = around.findIndex((s) => instant < s.until);
  // Past the given seasons, or in their last stretch (whose successor is next year's): the instant's own.
  if (index < 0 || index === around.length - 1) {
    around = seasonsAround(instant);
    index = around.findIndex((s) => instant < s.until);
  }
  const stretch = around[index]!;
  const upcoming = instant < stretch.from ? stretch : around[index + 1]!;
  const next = { promo: upcoming.promo, startsAt: upcoming.from };
  if (instant < stretch.from) return { current: null, changesAt: stretch.from, next };
  return { current: { promo: stretch.promo, endsAt: stretch.endsAt }, changesAt: stretch.until, next };
}

/** When the banner looks again: the countdown's next tick, or the next promotion's start or end (the page cache keeps a page no longer, ADR 039). */
export function nextBannerChange(now: number, stretches?: readonly PromoStretch[]): number {
  const { current, changesAt } = promoAt(now, stretches);
  return current ? Math.min(changesAt, nextCountdownChange(now, current.endsAt)) : changesAt;
}
