import { useIntl } from 'react-intl';
import { countdown } from '../lib/calendar/countdown.ts';
import { useLaterMessages } from '../lib/page/use-root.ts';

const FORMS = ['days', 'hours', 'minutes'] as const;

/**
 * "Ends in 5 h 12 min": the time left of the running promotion (ADR 021), in the page's
 * language. A timer to assistive technology, silent while it ticks (aria-live off): its name
 * is the unabbreviated time left ("Ends in 5 hours and 12 minutes"), read when a visitor
 * reaches it, and changing at most once a minute.
 */
export function PromoCountdown({ remaining }: { remaining: number }) {
  const intl = useIntl();
  // The countdown goes from days to hours to minutes while the page is open.
  useLaterMessages(...FORMS.flatMap((form) => [`promo.countdown.${form}`, `promo.countdown.${form}Long`]));
  const left = countdown(remaining);
  // No `Intl.NumberFormat` here, and no `#` in the countdown's messages (they print `{minutes}`):
  // its first use in a tab makes the browser list ICU's locales, 25–90 ms of the first tick after
  // hydration (ADR 068). The values are below 100, and our languages write them in Latin digits.
  const twoDigits = (value: number) => String(value).padStart(2, '0');
  let short: string;
  let long: string;
  switch (left.form) {
    case 'days':
      short = intl.formatMessage({ id: 'promo.countdown.days' }, { days: left.days, hours: left.hours });
      long = intl.formatMessage({ id: 'promo.countdown.daysLong' }, { days: left.days, hours: left.hours });
      break;
    case 'hours':
      short = intl.formatMessage({ id: 'promo.countdown.hours' }, { hours: left.hours, minutes: twoDigits(left.minutes) });
      long = intl.formatMessage({ id: 'promo.countdown.hoursLong' }, { hours: left.hours, minutes: left.minutes });
      break;
    case 'minutes':
      short = intl.formatMessage({ id: 'promo.countdown.minutes' }, { minutes: left.minutes, seconds: twoDigits(left.seconds) });
      long = intl.formatMessage({ id: 'promo.countdown.minutesLong' }, { minutes: left.minutes });
      break;
  }
  return (
    <span
      role="timer"
      aria-live="off"
      aria-label={intl.formatMessage({ id: 'promo.endsIn' }, { time: long })}
      className="whitespace-nowrap tabular-nums"
      data-testid="promo-countdown"
    >
      {intl.formatMessage({ id: 'promo.endsIn' }, { time: short })}
    </span>
  );
}
