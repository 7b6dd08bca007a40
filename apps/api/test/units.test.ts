/** Pure functions: no database, no server. */
import { describe, expect, it } from 'vitest';
import { verifyPassword, hashPassword } from '../src/lib/password.ts';
import { createRequestLog } from '../src/dev-request-log.ts';
import { createLogger } from '../src/logger.ts';
import { DEFAULT_REFERRER_BLOCKLIST, isReferrerBlocked, parseReferrerBlocklist } from '../src/domain/referrer-blocklist.ts';
import {
  REGISTRATION_LINK_VALIDITY_DAYS,
  createRegistrationLink,
  signValidityTimestamp,
  verifyValidityTimestamp,
} from '../src/domain/registration-link.ts';
import { apiSettings } from '../src/config.ts';
import { logCollector } from './support/api.ts';
import { testEnv } from './support/env.ts';

const SECRET = 'unit-secret-unit-secret-unit-secret-0000';

describe('registration links', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');

  it('is valid 14 days', () => {
    expect(REGISTRATION_LINK_VALIDITY_DAYS).toBe(14);
    const { url, expiresAt } = createRegistrationLink({ publicUrl: 'https://club.example/', code: ' welcome2026 ', secret: SECRET, now });
    expect(expiresAt.toISOString()).toBe('2026-12-06T12:00:00.000Z');
    const parsed = new URL(url);
    expect(parsed.origin + parsed.pathname).toBe('https://club.example/');
    expect(parsed.searchParams.get('rc')).toBe('WELCOME2026');
    const value = parsed.searchParams.get('validityTimestamp') ?? '';
    expect(value).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyValidityTimestamp('welcome2026', value, SECRET, now)).toEqual({ ok: true, expiresAt });
    expect(verifyValidityTimestamp('WELCOME2026', value, SECRET, new Date('2026-12-06T12:00:00.000Z'))).toEqual({
      ok: false,
      reason: 'expired',
      expiresAt,
    });
  });

  it('rejects tampering, other codes and other secrets', () => {
    const value = signValidityTimestamp('CODE', new Date('2026-12-01T00:00:00Z'), SECRET);
    const [expiry, signature] = value.split('.') as [string, string];
    expect(verifyValidityTimestamp('CODE', `${Number(expiry) + 1}.${signature}`, SECRET, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyValidityTimestamp('CODE2', value, SECRET, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyValidityTimestamp('CODE', value, `${SECRET}x`, now)).toEqual({ ok: false, reason: 'invalid' });
    for (const junk of ['', '.', '123.', `${expiry}.${signature}=`, `${expiry}.${signature}.x`, `-1.${signature}`]) {
      expect(verifyValidityTimestamp('CODE', junk, SECRET, now)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('referrer blocklist', () => {
  it.each([
    ['https://www.mydealz.de/deals/1', true],
    ['https://www.gutscheine.de/', true],
    ['https://old.reddit.com/r/fashion', true],
    ['https://www.google.com/', true],
    ['https://translate.google.com/', true],
    ['https://mail.yahoo.com/', true],
    ['https://x.com/user', true],
    ['https://t.co/abc', true],
    ['https://www.deepl.com/', true],
    ['https://web.de/', true],
    ['https://www.dropbox.com/', false],
    ['https://www.microsoft.com/', false],
    ['https://velvetrope.example/', false],
    ['not a url', false],
    ['', false],
  ])('%s -> %s', (referrer, blocked) => {
    expect(isReferrerBlocked(referrer, DEFAULT_REFERRER_BLOCKLIST)).toBe(blocked);
  });

  it('is replaced, not extended, by REFERRER_BLOCKLIST', () => {
    const settings = apiSettings(testEnv({ REFERRER_BLOCKLIST: ' Example , ,foo.bar ' }));
    expect(settings.referrerBlocklist).toEqual(['example', 'foo.bar']);
    expect(isReferrerBlocked('https://www.example.org/', settings.referrerBlocklist)).toBe(true);
    expect(isReferrerBlocked('https://www.mydealz.de/', settings.referrerBlocklist)).toBe(false);
    expect(parseReferrerBlocklist('a,A,b')).toEqual(['a', 'b']);
  });
});

describe('passwords', () => {
  it('rejects malformed hashes without throwing', async () => {
    const hash = await hashPassword('a long enough password');
    for (const bad of ['', 'scrypt', hash.replace('scrypt', 'bcrypt'), `${hash}$extra`, hash.replace('$32768$', '$99999999$')]) {
      expect(await verifyPassword('a long enough password', bad)).toBe(false);
    }
  });
});

describe('dev request log', () => {
  it('keeps the last operations in the order they came, and finds those of one page load', () => {
    const log = createRequestLog(3);
    const record = (n: number) =>
      log.record({ transport: 'http', operationName: `op${n}`, correlationId: `c${n}`, sessionId: n % 2 ? 'odd' : 'even', sourcePage: '/', bearer: false });
    record(1);
    record(2);
    expect(log.list().map((e) => e.operationName)).toEqual(['op1', 'op2']);
    for (const n of [3, 4, 5]) record(n);
    expect(log.list().map((e) => e.operationName)).toEqual(['op3', 'op4', 'op5']);
    expect(log.list('odd').map((e) => e.operationName)).toEqual(['op3', 'op5']);
    record(6);
    expect(log.list().map((e) => e.operationName)).toEqual(['op4', 'op5', 'op6']);
  });
});

describe('logger', () => {
  it('redacts personal fields', () => {
    const lines = logCollector();
    const logger = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, lines);
    logger.info(
      { email: 'a@b.c', member: { firstName: 'Ann', email: 'x@y.z' }, req: { headers: { authorization: 'Bearer t', cookie: 'c=1' } }, code: 'OK' },
      'hello',
    );
    const text = JSON.stringify(lines.lines);
    for (const secret of ['a@b.c', 'x@y.z', 'Ann', 'Bearer t', 'c=1']) expect(text).not.toContain(secret);
    expect(lines.lines[0]).toMatchObject({ email: '[redacted]', code: 'OK' });
  });

  it('redacts personal fields in arrays, in a logged error, in child bindings, and leaves the logged object as it was', () => {
    const lines = logCollector();
    const logger = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, lines);
    const error = Object.assign(new Error('refused'), { recipient: 'r@s.t' });
    const logged = { rows: [{ email: 'row@b.c', id: 1 }], err: error, nested: { deep: { email: 'deep@b.c' } } };
    logger.child({ firstName: 'Bindy', correlationId: 'c-1' }).warn(logged, 'hello');
    const text = JSON.stringify(lines.lines);
    for (const secret of ['row@b.c', 'r@s.t', 'deep@b.c', 'Bindy']) expect(text).not.toContain(secret);
    expect(lines.lines[0]).toMatchObject({
      correlationId: 'c-1',
      firstName: '[redacted]',
      rows: [{ email: '[redacted]', id: 1 }],
      err: { message: 'refused', recipient: '[redacted]', type: 'Error' },
      nested: { deep: { email: '[redacted]' } },
    });
    expect(String((lines.lines[0] as { err: { stack: string } }).err.stack)).toContain('refused');
    // The caller's objects are not changed.
    expect(logged.rows[0]?.email).toBe('row@b.c');
    expect(error.recipient).toBe('r@s.t');
  });
});
