/**
 * The promo countdown (ADR 021): the time left, rounded up in the smallest unit shown, in each
 * of the seven languages with its plurals, a calm timer for screen readers, and a schedule that
 * wakes the page exactly when what it shows changes — not every second for days.
 */
import { LOCALES, type Locale } from '@velvet/i18n/locales';
import { RawIntlProvider } from 'react-intl';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PromoCountdown } from '../app/components/promo-countdown.tsx';
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, countdown, nextCountdownChange } from '../app/lib/calendar/countdown.ts';
import { getIntl } from '../app/lib/i18n/intl.ts';
import { clientMessages } from '../app/lib/i18n/messages.server.ts';

const span = (d = 0, h = 0, m = 0, s = 0, ms = 0) => d * DAY_MS + h * HOUR_MS + m * MINUTE_MS + s * SECOND_MS + ms;

function render(locale: Locale, remaining: number) {
  const html = renderToString(
    <RawIntlProvider value={getIntl(locale, clientMessages(locale))}>
      <PromoCountdown remaining={remaining} />
    </RawIntlProvider>,
  );
  const element = /^<span ([^>]*)>([^<]*)<\/span>$/.exec(html);
  if (!element) throw new Error(`unexpected markup: ${html}`);
  const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(element[1]!)?.[1];
  return { text: element[2]!.replace(/&#x27;/g, '’'), label: attribute('aria-label'), role: attribute('role'), live: attribute('aria-live') };
}

// First in this file: FormatJS keeps the formatters it makes for the worker's lifetime.
describe('without ICU’s locale list (ADR 068)', () => {
  it('renders every form in every language without making an Intl.NumberFormat', () => {
    const NumberFormat = Intl.NumberFormat;
    const made: unknown[] = [];
    Intl.NumberFormat = new Proxy(NumberFormat, {
      construct: (target, args: unknown[]) => (made.push(args), Reflect.construct(target, args)),
      apply: (target, self, args: unknown[]) => (made.push(args), Reflect.apply(target, self, args)),
    });
    try {
      for (const locale of LOCALES) for (const remaining of [span(2, 5), span(1, 1), span(0, 5, 12), span(0, 1, 1), span(0, 0, 4, 5), span(0, 0, 0, 42)]) render(locale, remaining);
    } finally {
      Intl.NumberFormat = NumberFormat;
    }
    expect(made).toEqual([]);
  });
});

describe('the time left', () => {
  it.each([
    ['5 h 12 min exactly', span(0, 5, 12), { form: 'hours', hours: 5, minutes: 12 }],
    ['5 h 11 min 30 s (rounded up)', span(0, 5, 11, 30), { form: 'hours', hours: 5, minutes: 12 }],
    ['more than a day', span(2, 5, 0, 0, 1), { form: 'days', days: 2, hours: 6 }],
    ['exactly one day', span(1), { form: 'days', days: 1, hours: 0 }],
    ['23 h 59 min 30 s: a whole day, rounded up', span(0, 23, 59, 30), { form: 'days', days: 1, hours: 0 }],
    ['23 h 59 min', span(0, 23, 59), { form: 'hours', hours: 23, minutes: 59 }],
    ['exactly one hour', span(0, 1), { form: 'hours', hours: 1, minutes: 0 }],
    ['59 min 59 s', span(0, 0, 59, 59), { form: 'minutes', minutes: 59, seconds: 59 }],
    ['half a second', 500, { form: 'minutes', minutes: 0, seconds: 1 }],
    ['nothing', 0, { form: 'minutes', minutes: 0, seconds: 0 }],
    ['less than nothing', -5_000, { form: 'minutes', minutes: 0, seconds: 0 }],
  ])('%s', (_, remaining, expected) => {
    expect(countdown(remaining)).toEqual(expected);
  });
});

describe('when the countdown looks again', () => {
  it('wakes exactly when the text changes — hourly for days, every minute for hours, every second in the last hour', () => {
    const endsAt = Date.UTC(2026, 10, 27, 23);
    const start = endsAt - span(3, 2, 0, 30);
    const text = (now: number) => JSON.stringify(countdown(endsAt - now));
    // Every change, second by second…
    const changes: number[] = [];
    for (let now = start + SECOND_MS; now <= endsAt; now += SECOND_MS) if (text(now) !== text(now - SECOND_MS)) changes.push(now);
    // …is a wake-up of the schedule, which wakes little more than that.
    const wakeUps: number[] = [];
    for (let now = start; now < endsAt; ) wakeUps.push((now = nextCountdownChange(now, endsAt)));
    expect(changes.every((instant) => wakeUps.includes(instant))).toBe(true);
    expect(wakeUps.at(-1)).toBe(endsAt);
    expect(wakeUps.length).toBeLessThan(changes.length + 60 + 60);
    expect(wakeUps.filter((instant) => endsAt - instant > span(1, 1)).length).toBeLessThanOrEqual(50);
  });

  it('stops at the end', () => {
    expect(nextCountdownChange(1_000, 1_000)).toBe(1_000);
    expect(nextCountdownChange(2_000, 1_000)).toBe(1_000);
  });
});

describe('in seven languages', () => {
  const FIVE_TWELVE: Record<Locale, [string, string]> = {
    en: ['Ends in 5 h 12 min', 'Ends in 5 hours and 12 minutes'],
    de: ['Endet in 5 Std. 12 Min.', 'Endet in 5 Stunden und 12 Minuten'],
    fr: ['Se termine dans 5\u00a0h 12\u00a0min', 'Se termine dans 5\u00a0heures et 12\u00a0minutes'],
    it: ['Termina tra 5 h 12 min', 'Termina tra 5 ore e 12 minuti'],
    nl: ['Eindigt over 5 u 12 min', 'Eindigt over 5 uur en 12 minuten'],
    pl: ['Kończy się za 5 godz. 12 min', 'Kończy się za 5 godzin i 12 minut'],
    sv: ['Slutar om 5 tim 12 min', 'Slutar om 5 timmar och 12 minuter'],
  };

  it.each(LOCALES)('%s: a timer, silent while it ticks, its name the time left in words', (locale) => {
    const [text, label] = FIVE_TWELVE[locale];
    expect(render(locale, span(0, 5, 12))).toEqual({ text, label, role: 'timer', live: 'off' });
  });

  it.each([
    ['en', span(2, 5), 'Ends in 2 d 5 h', 'Ends in 2 days and 5 hours'],
    ['en', span(1, 1), 'Ends in 1 d 1 h', 'Ends in 1 day and 1 hour'],
    ['en', span(3), 'Ends in 3 d 0 h', 'Ends in 3 days'],
    ['en', span(0, 1, 1), 'Ends in 1 h 01 min', 'Ends in 1 hour and 1 minute'],
    ['en', span(0, 7), 'Ends in 7 h 00 min', 'Ends in 7 hours'],
    ['en', span(0, 0, 4, 5), 'Ends in 4 min 05 s', 'Ends in 4 minutes'],
    ['en', span(0, 0, 1, 30), 'Ends in 1 min 30 s', 'Ends in 1 minute'],
    ['en', span(0, 0, 0, 42), 'Ends in 0 min 42 s', 'Ends in less than a minute'],
    ['de', span(1, 1), 'Endet in 1 Tg. 1 Std.', 'Endet in 1 Tag und 1 Stunde'],
    ['de', span(0, 0, 0, 9), 'Endet in 0 Min. 09 Sek.', 'Endet in weniger als einer Minute'],
    ['pl', span(1, 1), 'Kończy się za 1 dzień 1 godz.', 'Kończy się za 1 dzień i 1 godzinę'],
    ['pl', span(2, 3), 'Kończy się za 2 dni 3 godz.', 'Kończy się za 2 dni i 3 godziny'],
    ['pl', span(5, 22), 'Kończy się za 5 dni 22 godz.', 'Kończy się za 5 dni i 22 godziny'],
    ['pl', span(0, 0, 21), 'Kończy się za 21 min 00 sek.', 'Kończy się za 21 minut'],
    ['pl', span(0, 0, 1), 'Kończy się za 1 min 00 sek.', 'Kończy się za 1 minutę'],
    ['fr', span(1, 1), 'Se termine dans 1\u00a0j 1\u00a0h', 'Se termine dans 1\u00a0jour et 1\u00a0heure'],
    ['fr', span(0, 0, 0, 30), 'Se termine dans 0\u00a0min 30\u00a0s', 'Se termine dans moins d’une minute'],
    ['it', span(1, 1), 'Termina tra 1 g 1 h', 'Termina tra 1 giorno e 1 ora'],
    ['nl', span(1, 1), 'Eindigt over 1 d 1 u', 'Eindigt over 1 dag en 1 uur'],
    ['sv', span(1, 1), 'Slutar om 1 d 1 tim', 'Slutar om 1 dag och 1 timme'],
    ['sv', span(0, 0, 2, 5), 'Slutar om 2 min 05 sek', 'Slutar om 2 minuter'],
  ] as const)('%s: %i ms left → "%s" ("%s")', (locale, remaining, text, label) => {
    expect(render(locale, remaining)).toMatchObject({ text, label });
  });
});
