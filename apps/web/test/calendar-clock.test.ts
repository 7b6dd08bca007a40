/**
 * The calendar's clock on the server (ADR 021): dates are printed in the club's time zone on
 * every machine, and a request can set the calendar's "now" with X-Test-Now only where
 * TEST_CLOCK allows it — never in production, and never with a malformed instant.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { EnvError, parseEnv } from '@velvet/config/env';
import express from 'express';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from '@formatjs/icu-messageformat-parser';
import { getIntl, pageIntl } from '../app/lib/i18n/intl.ts';
import { clientMessages } from '../app/lib/i18n/messages.server.ts';
import { calendarClock, parseTestNow } from '../server/test-clock.ts';

describe('dates on pages', () => {
  let zone: string | undefined;
  beforeEach(() => {
    zone = process.env.TZ;
  });
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it.each(['UTC', 'Europe/Lisbon', 'Pacific/Kiritimati', 'America/Los_Angeles'])(
    'are the club’s days, also on a server in %s (so the browser hydrates the same text)',
    (timeZone) => {
      process.env.TZ = timeZone;
      // 23:30 UTC on 8 December is 00:30 on 9 December in Berlin.
      const validUntil = new Date('2026-12-08T23:30:00.000Z');
      expect(getIntl('en', clientMessages('en')).formatMessage({ id: 'activation.voucherValidUntil' }, { date: validUntil })).toBe('Valid until December 9, 2026');
      expect(getIntl('de', clientMessages('de')).formatMessage({ id: 'activation.voucherValidUntil' }, { date: validUntil })).toBe('Gültig bis 9. Dezember 2026');
      // 23:30 UTC on 30 November is the first of December in Berlin, which French writes "1er".
      const firstOfMonth = new Date('2026-11-30T23:30:00.000Z');
      expect(getIntl('fr', clientMessages('fr')).formatMessage({ id: 'activation.voucherValidUntil' }, { date: firstOfMonth })).toBe('Valable jusqu’au 1er décembre 2026');
      // The console's dates, and a date inside a plural's branch, follow the club's zone too.
      const intl = pageIntl('en', { until: parse('{places, plural, one {# place until {date, date, long}} other {# places until {date, time, short}}}') });
      expect(intl.formatDate(validUntil, { dateStyle: 'long' })).toBe('December 9, 2026');
      expect(intl.formatMessage({ id: 'until' }, { places: 1, date: validUntil })).toBe('1 place until December 9, 2026');
      expect(intl.formatMessage({ id: 'until' }, { places: 2, date: validUntil })).toBe('2 places until 12:30 AM');
    },
  );
});

describe('X-Test-Now', () => {
  it('is a full instant with a time zone, or nothing', () => {
    expect(parseTestNow('2026-11-27T17:48:00Z')?.toISOString()).toBe('2026-11-27T17:48:00.000Z');
    expect(parseTestNow('2026-11-27T18:48:00.250+01:00')?.toISOString()).toBe('2026-11-27T17:48:00.250Z');
    for (const value of ['2026-11-27', '2026-11-27T17:48:00', '1795715280000', 'tomorrow', '2026-13-40T99:99:00Z', '']) expect(parseTestNow(value)).toBeNull();
  });

  const REAL = new Date('2026-06-15T10:00:00.000Z');
  let servers: { base: string; close: () => Promise<void> }[] = [];
  async function serve(honourHeader: boolean) {
    const app = express()
      .use(calendarClock(honourHeader, () => REAL))
      .get('/', (_req, res) => {
        res.json({ now: (res.locals.calendarNow as Date).toISOString() });
      });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const entry = { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    servers.push(entry);
    return entry.base;
  }
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  const ask = async (base: string, header?: string) => {
    const response = await fetch(base, { headers: header === undefined ? {} : { 'x-test-now': header } });
    return { status: response.status, body: response.status === 200 ? ((await response.json()) as { now: string }).now : await response.text() };
  };

  it('is ignored unless TEST_CLOCK is on: the calendar keeps the real clock', async () => {
    const base = await serve(false);
    expect(await ask(base, '2026-11-27T17:48:00Z')).toEqual({ status: 200, body: REAL.toISOString() });
    expect(await ask(base, 'garbage')).toEqual({ status: 200, body: REAL.toISOString() });
  });

  it('with TEST_CLOCK on, sets the calendar’s now; a malformed one is a 400, not a silent real date', async () => {
    const base = await serve(true);
    expect(await ask(base)).toEqual({ status: 200, body: REAL.toISOString() });
    expect(await ask(base, '2026-11-27T17:48:00Z')).toEqual({ status: 200, body: '2026-11-27T17:48:00.000Z' });
    const bad = await ask(base, '27.11.2026 18:48');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('x-test-now must be an ISO 8601 instant');
  });
});

describe('TEST_CLOCK', () => {
  const base = { APP_SECRET: 'x'.repeat(32), DATA_DIR: 'test-results/unused' };
  it('is off by default and may be on outside production', () => {
    expect(parseEnv(base).TEST_CLOCK).toBe(false);
    expect(parseEnv({ ...base, TEST_CLOCK: 'true' }).TEST_CLOCK).toBe(true);
    expect(parseEnv({ ...base, NODE_ENV: 'test', TEST_CLOCK: 'true' }).TEST_CLOCK).toBe(true);
  });

  it('stops the start-up of a deployment (a PUBLIC_URL that is not a loopback address), whatever NODE_ENV says', () => {
    const deployment = { ...base, PUBLIC_URL: 'https://club.velvetrope.example', SMTP_URL: 'smtp://mail.example:587' };
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => parseEnv({ ...deployment, NODE_ENV, TEST_CLOCK: 'true' })).toThrow(EnvError);
      expect(() => parseEnv({ ...deployment, NODE_ENV, TEST_CLOCK: 'true' })).toThrow(/TEST_CLOCK is for tests only/);
    }
    expect(parseEnv({ ...deployment, NODE_ENV: 'production', TEST_CLOCK: 'false' }).TEST_CLOCK).toBe(false);
  });

  it('may be on in a production start on this machine, as the e2e suite runs it (ADR 026)', () => {
    expect(parseEnv({ ...base, NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1:3310', TEST_CLOCK: 'true' }).TEST_CLOCK).toBe(true);
  });
});
