/** Pure parts of registration and mail: voucher variants, links, tokens, back-off, email rendering. No database. */
import { catalogs } from '@velvet/i18n/catalogs';
import { LOCALES } from '@velvet/i18n/locales';
import { describe, expect, it } from 'vitest';
import { hashToken, randomToken, seal, unseal, deriveKey, TOKEN_PATTERN } from '../src/lib/tokens.ts';
import { BACKOFF_MAX_MS, backoffMs, describeFailure } from '../src/mail/outbox-worker.ts';
import { renderInvitationEmail } from '../src/mail/templates/invitation-email.tsx';
import { messageIdFor } from '../src/mail/transport.ts';
import { ACTIVATION_VALIDITY_DAYS } from '../src/domain/activation-links.ts';
import { activationUrl, invitationUrl } from '../src/mail/links.ts';
import { generateVoucherCode } from '../src/domain/welcome-voucher.ts';

describe('welcome voucher code', () => {
  it('is readable and distinct', () => {
    const codes = new Set(Array.from({ length: 500 }, generateVoucherCode));
    expect(codes.size).toBe(500);
    for (const code of codes) expect(code).toMatch(/^WELCOME-[A-HJ-KM-NP-Z2-9]{4}-[A-HJ-KM-NP-Z2-9]{4}-[A-HJ-KM-NP-Z2-9]{4}$/);
  });
});

describe('activation links', () => {
  it('are valid 7 days', () => {
    expect(ACTIVATION_VALIDITY_DAYS).toBe(7);
  });
  it('point to the activation page, under the language prefix except for English', () => {
    expect(activationUrl('https://club.example/', 'en', 'abc_DEF-1')).toBe(
      'https://club.example/registration/activateaccount?activationId=abc_DEF-1',
    );
    expect(activationUrl('https://club.example', 'pl', 'x')).toBe('https://club.example/pl/registration/activateaccount?activationId=x');
    expect(activationUrl('https://club.example', 'xx', 'x')).toBe('https://club.example/registration/activateaccount?activationId=x');
  });
  it('carry 256 random bits; the database keeps the SHA-256 only', () => {
    const token = randomToken();
    expect(token).toMatch(TOKEN_PATTERN);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hashToken(token)).not.toBe(token);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(randomToken()).not.toBe(token);
  });
  it('are sealed in the outbox: unreadable without the key, tamper-evident', () => {
    const key = deriveKey('secret-secret-secret-secret-secret-1', 'p');
    const sealed = seal('the-link-id', key);
    expect(sealed).not.toContain('the-link-id');
    expect(unseal(sealed, key)).toBe('the-link-id');
    expect(() => unseal(sealed, deriveKey('secret-secret-secret-secret-secret-1', 'other'))).toThrow();
    const [v, iv, data, tag] = sealed.split('.');
    const flipped = `${v}.${iv}.${(data ?? '').slice(0, -2)}${(data ?? '').endsWith('AA') ? 'AB' : 'AA'}.${tag}`;
    expect(() => unseal(flipped, key)).toThrow();
  });
});

describe('outbox back-off', () => {
  it('doubles from 30 s, caps at an hour, and adds at most 20 % jitter', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, 0))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(backoffMs(9, 0)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(1, 0.999)).toBeLessThanOrEqual(36_000);
  });
  it('keeps addresses out of stored errors', () => {
    expect(describeFailure(new Error('550 5.1.1 <jane.doe@example.com>: Recipient address rejected'))).toBe(
      'Error: 550 5.1.1 <[address]>: Recipient address rejected',
    );
    expect(describeFailure('x'.repeat(900))).toHaveLength(500);
  });
  it('names every attempt of one row with the same Message-ID', () => {
    expect(messageIdFor('1b4e28ba-2fa1-11d2-883f-0016d3cca427')).toBe('<outbox-1b4e28ba-2fa1-11d2-883f-0016d3cca427@velvetrope>');
  });
});

describe('invitation email', () => {
  const expiresAt = new Date('2026-12-24T12:00:00.000Z');
  it.each(LOCALES)('is written in %s from the catalog, with the code, the link, the expiry and the reason', async (locale) => {
    const messages = catalogs[locale];
    const url = invitationUrl('https://club.example', locale, 'ABCD2345');
    for (const reason of ['waitlist', 'interest'] as const) {
      const email = await renderInvitationEmail({ locale, code: 'ABCD2345', invitationUrl: url, expiresAt, reason });
      expect(email.subject).toBe(messages['email.invitation.subject']);
      expect(email.html).toMatch(new RegExp(`<html[^>]* lang="${locale}"`));
      expect(email.html).toContain(`href="${url}"`);
      expect(email.text).toContain((messages['email.invitation.code'] ?? '').replace('{code}', 'ABCD2345'));
      // French sets a no-break space before the colon (docs/i18n/fr.md); the others none.
      expect(email.text).toContain(`${messages['email.invitation.button']}${locale === 'fr' ? '\u00a0:' : ':'}\n${url}`);
      expect(email.text).toContain(messages[reason === 'waitlist' ? 'email.invitation.reasonWaitlist' : 'email.invitation.reasonInterest']);
      expect(email.text).toContain(messages['email.footer.tagline']);
      expect(email.text).toContain('2026');
      expect(`${email.subject}${email.text}`).not.toMatch(/[{}]/);
    }
  });
  it('gives a French reader the first of the month as French writes it', async () => {
    const url = invitationUrl('https://club.example', 'fr', 'ABCD2345');
    const first = await renderInvitationEmail({ locale: 'fr', code: 'ABCD2345', invitationUrl: url, expiresAt: new Date('2026-12-01T12:00:00Z'), reason: 'waitlist' });
    expect(first.text).toContain('jusqu’au 1er décembre 2026.');
    expect(first.html).toContain('1er décembre 2026');
    const eleventh = await renderInvitationEmail({ locale: 'fr', code: 'ABCD2345', invitationUrl: url, expiresAt: new Date('2026-12-11T12:00:00Z'), reason: 'waitlist' });
    expect(eleventh.text).toContain('jusqu’au 11 décembre 2026.');
  });
});
