/** The browser's error-report tunnel (ADR 013) over real HTTP: limits, validation, scrubbing again. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ITEMS_PER_MINUTE, MAX_PAYLOAD_BYTES } from '@velvet/error-reporting/limits';
import { createReporter } from '@velvet/error-reporting/reporter';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebErrorReporting, errorReportTunnel, perClientLimit } from '../server/error-reports.ts';

const logger = pino({ level: 'silent' });

describe('the error-report tunnel', () => {
  const forwarded: string[] = [];
  let base: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const reporting = { ...createWebErrorReporting({ url: 'http://127.0.0.1:9/never', environment: 'test', logger }), send: async (body: string) => void forwarded.push(body) };
    const server = express().use(errorReportTunnel(reporting, logger)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/error-reports`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  /** A report as a page builds it, but with personal data it "forgot" to scrub. */
  function pageReport(): string {
    let body = '';
    createReporter({ platform: 'javascript', logger: 'browser', environment: 'test', transport: (b) => void (body = b) }).captureMessage('hello');
    const report = JSON.parse(body) as Record<string, unknown>;
    report.extra = { firstName: 'Jannike', note: 'mail jannike@example.com' };
    report.transaction = '/?lastName=Doerfler';
    return JSON.stringify(report);
  }

  it('forwards a report scrubbed again and tagged as from a browser', async () => {
    const response = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: pageReport() });
    expect(response.status).toBe(204);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]).not.toMatch(/Jannike|jannike|Doerfler/);
    expect(JSON.parse(forwarded[0]!)).toMatchObject({ logger: 'browser', tags: { source: 'browser' }, extra: { firstName: '[Filtered]' } });
  });

  it('refuses what is not a report, and bodies over the size limit', async () => {
    expect((await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":1}' })).status).toBe(400);
    expect((await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(MAX_PAYLOAD_BYTES + 1) })).status).toBe(413);
  });

  it(`takes at most ${ITEMS_PER_MINUTE} reports per client and minute`, () => {
    let now = 0;
    const allow = perClientLimit(ITEMS_PER_MINUTE, () => now);
    for (let i = 0; i < ITEMS_PER_MINUTE; i++) expect(allow('a')).toBe(true);
    expect(allow('a')).toBe(false);
    expect(allow('b')).toBe(true);
    now = 60_001;
    expect(allow('a')).toBe(true);
  });

  it('does not exist without ERROR_REPORTING_URL', () => {
    const off = createWebErrorReporting({ url: undefined, environment: 'test', logger });
    expect(off.send).toBeNull();
    expect(() => off.report(new Error('x'))).not.toThrow();
  });
});
