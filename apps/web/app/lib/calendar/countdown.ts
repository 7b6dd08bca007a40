/**
 * The promo countdown's arithmetic (ADR 021), pure. Time left is rounded up in the smallest
 * unit shown, so the countdown never reads zero while the promotion still runs, and reaches
 * zero exactly when it ends:
 *   more than a day left   → days and hours     ("2 d 5 h"), changes every hour
 *   more than an hour left → hours and minutes  ("5 h 12 min"), every minute
 *   the last hour          → minutes and seconds ("42 min 05 s"), every second
 */
export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export type Countdown =
  | { form: 'days'; days: number; hours: number }
  | { form: 'hours'; hours: number; minutes: number }
  | { form: 'minutes'; minutes: number; seconds: number };

/** The time left, `remaining` milliseconds, as the countdown shows it. */
export function countdown(remaining: number): Countdown {
  const left = Math.max(0, remaining);
  const minutes = Math.ceil(left / MINUTE_MS);
  if (minutes >= 24 * 60) {
    const hours = Math.ceil(left / HOUR_MS);
    return { form: 'days', days: Math.floor(hours / 24), hours: hours % 24 };
  }
  const seconds = Math.ceil(left / SECOND_MS);
  if (seconds >= 60 * 60) return { form: 'hours', hours: Math.floor(minutes / 60), minutes: minutes % 60 };
  return { form: 'minutes', minutes: Math.floor(seconds / 60), seconds: seconds % 60 };
}

/**
 * The next instant after `now` at which the countdown to `endsAt` may read differently: a
 * whole second, minute or hour before the end (the finer unit shortly before the form changes,
 * so the last hour ticks from its first second). `endsAt` itself once the time is up.
 */
export function nextCountdownChange(now: number, endsAt: number): number {
  const remaining = endsAt - now;
  if (remaining <= 0) return endsAt;
  const unit = remaining > DAY_MS + HOUR_MS ? HOUR_MS : remaining > HOUR_MS + MINUTE_MS ? MINUTE_MS : SECOND_MS;
  return now + (remaining % unit || unit);
}
