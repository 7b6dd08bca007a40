/**
 * The calendar's "now" of a request (ADR 021). Normally the moment the request arrives. With
 * TEST_CLOCK on (tests only; packages/config refuses it in production), a request may carry
 * `X-Test-Now: <ISO 8601 instant with Z or an offset>` and the page's calendar — promotions,
 * their countdown, the footer's year — shows that instant instead. It moves nothing else:
 * the header never reaches the API, and tokens, links and cookies keep to the real clock.
 */
import type { RequestHandler } from 'express';
import { TEST_NOW_HEADER } from '../app/lib/calendar/club-time.ts';

export { TEST_NOW_HEADER };

/** A full instant: date, time and a zone (Z or ±hh:mm), so no server's own time zone can read it differently. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The instant an X-Test-Now value names, or null when it is not one. */
export function parseTestNow(value: string): Date | null {
  if (!INSTANT.test(value)) return null;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/**
 * Sets `res.locals.calendarNow` for every request. With `honourHeader` (TEST_CLOCK), a malformed
 * X-Test-Now is answered 400, so a test that sets it wrongly fails loudly instead of running on
 * the real date; without it, the header is ignored.
 */
export function calendarClock(honourHeader: boolean, clock: () => Date = () => new Date()): RequestHandler {
  return (req, res, next) => {
    const header = honourHeader ? req.get(TEST_NOW_HEADER) : undefined;
    if (header === undefined) {
      res.locals.calendarNow = clock();
      next();
      return;
    }
    const instant = parseTestNow(header.trim());
    if (!instant) {
      res.status(400).type('text/plain').send(`${TEST_NOW_HEADER} must be an ISO 8601 instant with a time zone, such as 2026-11-27T17:48:00Z`);
      return;
    }
    res.locals.calendarNow = instant;
    next();
  };
}
