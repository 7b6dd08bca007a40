/** The console's invitation forms (ADR 046): what a balance, an expiry, a count and a chosen code may be. */
import { describe, expect, it } from 'vitest';
import { codeChangeForm, newCodesForm } from '../src/codes.ts';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.success ? [] : (result.error?.issues ?? []).map((issue) => `${String(issue.path[0])}: ${issue.message}`);

describe('newCodesForm', () => {
  const form = newCodesForm(() => NOW);

  it('reads the form as it is posted: text numbers, an empty field as absent, a checkbox as on', () => {
    expect(form.parse({ inviterName: ' Ada ', count: '', balance: '7', expiresAt: '2027-01-31', customization: '', landingSlug: 'VIP', requiresValidityTimestamp: 'on' })).toEqual({
      inviterName: 'Ada',
      count: 1,
      balance: 7,
      expiresAt: new Date('2027-01-31T23:59:59.999Z'),
      customization: undefined,
      landingSlug: 'vip',
      requiresValidityTimestamp: true,
      code: undefined,
    });
  });

  it.each([
    [{ balance: '-1' }, 'balance: admin.codes.error.balance'],
    [{ balance: '1000000000000' }, 'balance: admin.codes.error.balance'],
    [{ balance: '2.5' }, 'balance: admin.codes.error.balance'],
    [{ balance: 'ten' }, 'balance: admin.codes.error.balance'],
    [{ balance: '' }, 'balance: admin.codes.error.balance'],
    [{ count: '0' }, 'count: admin.codes.error.count'],
    [{ count: '101' }, 'count: admin.codes.error.count'],
    [{ expiresAt: '2026-11-24T11:59:59Z' }, 'expiresAt: admin.codes.error.expiryPast'],
    [{ expiresAt: '2020-01-01' }, 'expiresAt: admin.codes.error.expiryPast'],
    [{ expiresAt: 'tomorrow' }, 'expiresAt: admin.codes.error.expiry'],
    [{ expiresAt: '2027-02-30T00:00:00Z' }, 'expiresAt: admin.codes.error.expiry'],
    [{ landingSlug: '-vip' }, 'landingSlug: admin.codes.error.slug'],
    [{ customization: 'gold' }, 'customization: admin.codes.error.customization'],
    [{ code: 'ab' }, 'code: admin.codes.error.code'],
    [{ code: 'mine-1', count: '3' }, 'count: admin.codes.error.oneCode'],
  ])('refuses %j with one message for its field', (input, message) => {
    expect(messages(form.safeParse({ inviterName: 'Ada', balance: '3', ...input }))).toEqual([message]);
  });

  it('takes today as still valid until the end of the day, and a chosen code normalised', () => {
    expect(form.parse({ inviterName: 'Ada', balance: '0', expiresAt: '2026-11-24', code: ' mine-1 ' })).toMatchObject({
      expiresAt: new Date('2026-11-24T23:59:59.999Z'),
      code: 'MINE-1',
      balance: 0,
    });
  });
});

describe('codeChangeForm', () => {
  const form = codeChangeForm(() => NOW);

  it('takes a balance, an expiry, or removing the expiry, and refuses an empty change', () => {
    expect(form.parse({ balance: '12' })).toEqual({ balance: 12, expiresAt: undefined, clearExpiry: false });
    expect(form.parse({ clearExpiry: 'on' })).toEqual({ balance: undefined, expiresAt: undefined, clearExpiry: true });
    expect(messages(form.safeParse({ balance: '', expiresAt: '' }))).toEqual(['balance: admin.codes.error.nothing']);
    expect(messages(form.safeParse({ balance: '-1' }))).toEqual(['balance: admin.codes.error.balance']);
  });
});
