import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  LOBBY_TOKEN_DEFAULT_DAYS,
  MEMBER_TOKEN_TTL_SECONDS,
  SOCIAL_TOKEN_TTL_SECONDS,
  derivePurposeKey,
  saltedCustomerIdHash,
  signLobbyToken,
  signMemberToken,
  signSocialToken,
  verifyLobbyToken,
  verifyMemberToken,
  verifySocialToken,
} from '../src/signed-token.ts';

const SECRET = 'test-secret-with-enough-entropy-0123456789';
const NOW = new Date('2030-05-01T10:00:00.000Z');
const social = { email: 'Zoe@Example.com', emailVerified: true, firstName: 'Zoë', lastName: 'Łukasz', provider: 'google', subject: '1234567890' };

function tamper(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  claims.email = 'mallory@example.com';
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

/** A token signed with the right key and headers but a payload of the test's choosing. */
async function signRaw(purpose: 'lobby' | 'social', payload: Record<string, unknown>, now = NOW) {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: `velvet-${purpose}+jwt` })
    .setIssuer('velvet-rope')
    .setAudience(`velvet-rope:${purpose}`)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 60)
    .sign(await derivePurposeKey(SECRET, purpose));
}

describe('lobby tokens', () => {
  it('round-trips the address, lower-cased, with its expiry', async () => {
    const token = await signLobbyToken({ email: ' Anna@Example.COM ' }, SECRET, LOBBY_TOKEN_DEFAULT_DAYS * 86400, NOW);
    const result = await verifyLobbyToken(token, SECRET, NOW);
    expect(result).toEqual({ ok: true, claims: { email: 'anna@example.com' }, expiresAt: new Date(NOW.getTime() + 30 * 86400 * 1000) });
  });

  it('is missing when absent or empty', async () => {
    for (const token of [undefined, null, '', '   ']) {
      expect(await verifyLobbyToken(token, SECRET, NOW)).toEqual({ ok: false, reason: 'missing' });
    }
  });

  it('is invalid when tampered, garbage, signed with another secret or unsigned', async () => {
    const token = await signLobbyToken({ email: 'anna@example.com' }, SECRET, 60, NOW);
    expect(await verifyLobbyToken(tamper(token), SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyLobbyToken(`${token}x`, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyLobbyToken('not-a-token', SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyLobbyToken('a.b.c', SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyLobbyToken('x'.repeat(5000), SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyLobbyToken(token, 'another-secret', NOW)).toEqual({ ok: false, reason: 'invalid' });
    const unsecured = new UnsecuredJWT({ email: 'anna@example.com' })
      .setIssuer('velvet-rope')
      .setAudience('velvet-rope:lobby')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    expect(await verifyLobbyToken(unsecured, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is expired from its exp on, and a tampered expired token is still invalid', async () => {
    const token = await signLobbyToken({ email: 'anna@example.com' }, SECRET, 60, NOW);
    expect((await verifyLobbyToken(token, SECRET, new Date(NOW.getTime() + 59_000))).ok).toBe(true);
    expect(await verifyLobbyToken(token, SECRET, new Date(NOW.getTime() + 60_000))).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyLobbyToken(tamper(token), SECRET, new Date(NOW.getTime() + 3_600_000))).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is no-email when authentic but without a usable address', async () => {
    expect(await verifyLobbyToken(await signRaw('lobby', {}), SECRET, NOW)).toEqual({ ok: false, reason: 'no-email' });
    expect(await verifyLobbyToken(await signRaw('lobby', { email: 'not an address' }), SECRET, NOW)).toEqual({ ok: false, reason: 'no-email' });
    expect(await verifyLobbyToken(await signRaw('lobby', { email: 42 }), SECRET, NOW)).toEqual({ ok: false, reason: 'no-email' });
    expect(await verifyLobbyToken(await signLobbyToken({ email: '' }, SECRET, 60, NOW), SECRET, NOW)).toEqual({ ok: false, reason: 'no-email' });
  });

  it('refuses a non-positive lifetime and an empty secret when signing', async () => {
    await expect(signLobbyToken({ email: 'anna@example.com' }, SECRET, 0, NOW)).rejects.toThrow(/ttlSeconds/);
    await expect(signLobbyToken({ email: 'anna@example.com' }, '', 60, NOW)).rejects.toThrow(/secret/);
  });
});

describe('social tokens', () => {
  it('round-trips every claim, the address lower-cased', async () => {
    const token = await signSocialToken(social, SECRET, SOCIAL_TOKEN_TTL_SECONDS, NOW);
    expect(await verifySocialToken(token, SECRET, NOW)).toEqual({
      ok: true,
      claims: { ...social, email: 'zoe@example.com' },
      expiresAt: new Date(NOW.getTime() + 900_000),
    });
  });

  it('leaves out names the provider did not give', async () => {
    const token = await signSocialToken({ email: 'a@example.com', emailVerified: false, provider: 'apple', subject: 's' }, SECRET, 60, NOW);
    const result = await verifySocialToken(token, SECRET, NOW);
    expect(result).toMatchObject({ ok: true, claims: { email: 'a@example.com', emailVerified: false, provider: 'apple', subject: 's' } });
    expect(result.ok && 'firstName' in result.claims).toBe(false);
  });

  it('reports every failure reason', async () => {
    const token = await signSocialToken(social, SECRET, 60, NOW);
    expect(await verifySocialToken('', SECRET, NOW)).toEqual({ ok: false, reason: 'missing' });
    expect(await verifySocialToken(tamper(token), SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifySocialToken(token, SECRET, new Date(NOW.getTime() + 61_000))).toEqual({ ok: false, reason: 'expired' });
    expect(await verifySocialToken(await signRaw('social', { emailVerified: true, provider: 'google', subject: 's' }), SECRET, NOW)).toEqual({
      ok: false,
      reason: 'no-email',
    });
  });

  it('is invalid when signed by us but shaped wrongly', async () => {
    for (const payload of [
      { email: 'a@example.com', provider: 'google', subject: 's' },
      { email: 'a@example.com', emailVerified: 'yes', provider: 'google', subject: 's' },
      { email: 'a@example.com', emailVerified: true, subject: 's' },
      { email: 'a@example.com', emailVerified: true, provider: 'google' },
    ]) {
      expect(await verifySocialToken(await signRaw('social', payload), SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('purpose separation', () => {
  it('never accepts a token of one purpose as the other', async () => {
    const lobby = await signLobbyToken({ email: 'anna@example.com' }, SECRET, 60, NOW);
    const socialToken = await signSocialToken(social, SECRET, 60, NOW);
    expect(await verifyLobbyToken(socialToken, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifySocialToken(lobby, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('keys differ per purpose, so even a forged header or audience does not help', async () => {
    const lobbyKey = await derivePurposeKey(SECRET, 'lobby');
    const socialKey = await derivePurposeKey(SECRET, 'social');
    expect(Buffer.from(lobbyKey).equals(Buffer.from(socialKey))).toBe(false);
    // Social-shaped headers and audience, signed with the lobby key: still not a social token.
    const iat = Math.floor(NOW.getTime() / 1000);
    const forged = await new SignJWT({ email: 'a@example.com', emailVerified: true, provider: 'google', subject: 's' })
      .setProtectedHeader({ alg: 'HS256', typ: 'velvet-social+jwt' })
      .setIssuer('velvet-rope')
      .setAudience('velvet-rope:social')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(lobbyKey);
    expect(await verifySocialToken(forged, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a token with the right key but the wrong audience or type', async () => {
    const iat = Math.floor(NOW.getTime() / 1000);
    const key = await derivePurposeKey(SECRET, 'lobby');
    const wrongAudience = await new SignJWT({ email: 'a@example.com' })
      .setProtectedHeader({ alg: 'HS256', typ: 'velvet-lobby+jwt' })
      .setIssuer('velvet-rope')
      .setAudience('velvet-admin')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(key);
    const wrongType = await new SignJWT({ email: 'a@example.com' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('velvet-rope')
      .setAudience('velvet-rope:lobby')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(key);
    expect(await verifyLobbyToken(wrongAudience, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyLobbyToken(wrongType, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('member tokens', () => {
  const customerId = '0b7f3c9e-6a51-4f0e-9d8c-2f4b1e7a9c01';

  it('identify the customer for 7 days, the auth cookie’s lifetime (spec §9)', async () => {
    expect(MEMBER_TOKEN_TTL_SECONDS).toBe(604800);
    const token = await signMemberToken({ customerId: customerId.toUpperCase() }, SECRET, undefined, NOW);
    expect(await verifyMemberToken(token, SECRET, NOW)).toEqual({
      ok: true,
      claims: { customerId },
      expiresAt: new Date(NOW.getTime() + 604800 * 1000),
    });
    expect(await verifyMemberToken(token, SECRET, new Date(NOW.getTime() + 604800 * 1000))).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyMemberToken(undefined, SECRET, NOW)).toEqual({ ok: false, reason: 'missing' });
    expect(await verifyMemberToken(token, 'another-secret', NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('are not lobby or social tokens, and those are not member tokens', async () => {
    const member = await signMemberToken({ customerId }, SECRET, 60, NOW);
    expect(await verifyLobbyToken(member, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifySocialToken(member, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    const lobby = await signLobbyToken({ email: 'anna@example.com' }, SECRET, 60, NOW);
    expect(await verifyMemberToken(lobby, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('name a customer id and nothing else', async () => {
    await expect(signMemberToken({ customerId: 'anna@example.com' }, SECRET, 60, NOW)).rejects.toThrow(/customer id/);
    const iat = Math.floor(NOW.getTime() / 1000);
    const withoutId = await new SignJWT({ sub: 'not-a-uuid' })
      .setProtectedHeader({ alg: 'HS256', typ: 'velvet-member+jwt' })
      .setIssuer('velvet-rope')
      .setAudience('velvet-rope:member')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(await derivePurposeKey(SECRET, 'member'));
    expect(await verifyMemberToken(withoutId, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    const payload = JSON.parse(Buffer.from((await signMemberToken({ customerId }, SECRET, 60, NOW)).split('.')[1]!, 'base64url').toString('utf8')) as object;
    expect(Object.keys(payload).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'sub']);
  });

  it('come with a salted hash of the customer id: stable, keyed by the secret, not a plain SHA-256', async () => {
    const hash = await saltedCustomerIdHash(customerId, SECRET);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await saltedCustomerIdHash(customerId.toUpperCase(), SECRET)).toBe(hash);
    expect(await saltedCustomerIdHash(customerId, 'another-secret-with-enough-entropy-0123')).not.toBe(hash);
    const plain = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(customerId))).toString('hex');
    expect(hash).not.toBe(plain);
  });
});
