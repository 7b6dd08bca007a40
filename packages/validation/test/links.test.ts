/** The link shapes both apps build and read. */
import { describe, expect, it } from 'vitest';
import { invitationSearch, readInvitation, siteUrl } from '../src/links.ts';

describe('links', () => {
  it('puts every language but English under its prefix', () => {
    expect(siteUrl('https://club.example/', 'de', '/registration/activateaccount', { activationId: 'a b' })).toBe(
      'https://club.example/de/registration/activateaccount?activationId=a+b',
    );
    expect(siteUrl('https://club.example', 'en', '/lobby', { token: 't' })).toBe('https://club.example/lobby?token=t');
    expect(siteUrl('https://club.example', 'fr', '/', invitationSearch({ code: 'ABC-1' }))).toBe('https://club.example/fr/?rc=ABC-1');
  });

  it('writes and reads an invitation the same way', () => {
    const search = invitationSearch({ code: 'VIP-ANNA', validityTimestamp: '123.sig', slug: 'vip' }, { step: '2' });
    expect(search).toBe('rc=VIP-ANNA&validityTimestamp=123.sig&slug=vip&step=2');
    expect(readInvitation(new URLSearchParams(search))).toEqual({ code: 'VIP-ANNA', validityTimestamp: '123.sig', slug: 'vip' });
    expect(invitationSearch({ code: 'A', validityTimestamp: null, slug: '' })).toBe('rc=A');
  });

  it('reads a typed code trimmed and upper-cased, and no code as no invitation', () => {
    expect(readInvitation(new URLSearchParams('rc=%20vip-anna%20'))).toEqual({ code: 'VIP-ANNA', validityTimestamp: null, slug: null });
    expect(readInvitation(new URLSearchParams('rc=%20%20'))).toBeNull();
    expect(readInvitation(new URLSearchParams(''))).toBeNull();
  });
});
