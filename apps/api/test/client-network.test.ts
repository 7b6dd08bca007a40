import { describe, expect, it } from 'vitest';
import { clientNetwork, signalNetwork } from '@velvet/validation/client-network';
import { mailboxOf } from '../src/domain/email-normalization.ts';

describe('client networks (issue 12 §2)', () => {
  it('are IPv4 addresses as they are, and IPv6 /64 prefixes however the address is written', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('2001:db8:aa:1::1')).toBe('2001:db8:aa:1::/64');
    expect(clientNetwork('2001:0db8:00aa:0001:ffff:0:0:99')).toBe('2001:db8:aa:1::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('unknown')).toBe('unknown');
  });

  it("spread a code's signals over IPv4 /24 and IPv6 /48: one line's many /64s are one network (ADR 054)", () => {
    expect(signalNetwork('203.0.113.9')).toBe('203.0.113.0/24');
    expect(signalNetwork('::ffff:198.51.100.4')).toBe('198.51.100.0/24');
    expect(signalNetwork('2001:db8:aa:1::1')).toBe('2001:db8:aa::/48');
    expect(signalNetwork('2001:db8:aa:ff01::7')).toBe('2001:db8:aa::/48');
    expect(signalNetwork('2001:db8:ab:1::1')).toBe('2001:db8:ab::/48');
  });
});

describe('mailboxes (issue 12 §2)', () => {
  it('are one however the address is spelled', () => {
    expect(mailboxOf(' Anna.Berg+shop@GMail.com ')).toBe('annaberg@gmail.com');
    expect(mailboxOf('anna.berg@googlemail.com')).toBe('annaberg@gmail.com');
    expect(mailboxOf('anna.berg+x@example.com')).toBe('anna.berg@example.com');
    expect(mailboxOf('+only@example.com')).toBe('+only@example.com');
  });
});
