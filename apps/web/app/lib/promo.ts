/**
 * The seasonal promotion banner (Black Week, Black Friday, Cyber Monday), decided on the
 * server from the date so the banner is in the first paint and never shifts the layout.
 * Black Friday is the day after the fourth Thursday of November; Black Week runs from the
 * Monday before it to the Sunday after; Cyber Monday is the Monday after.
 */
export type Promo = 'blackFriday' | 'blackWeek' | 'cyberMonday';

const DAY = 86_400_000;

export function blackFriday(year: number): Date {
  const novemberFirst = new Date(Date.UTC(year, 10, 1));
  const firstThursday = 1 + ((4 - novemberFirst.getUTCDay() + 7) % 7);
  return new Date(Date.UTC(year, 10, firstThursday + 21 + 1));
}

export function promoFor(now: Date): Promo | null {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const friday = blackFriday(now.getUTCFullYear()).getTime();
  const offset = Math.round((today - friday) / DAY);
  if (offset === 0) return 'blackFriday';
  if (offset === 3) return 'cyberMonday';
  if (offset >= -4 && offset <= 2) return 'blackWeek';
  return null;
}
