/** Mutation.joinWaitlist and Query.lobbyToken end to end through Yoga, on SQLite and PostgreSQL. */
import type { UserError } from '@velvet/validation/user-errors';
import { SignJWT } from 'jose';
import { derivePurposeKey, signLobbyToken, signSocialToken } from '@velvet/tokens/signed-token';
import { describe, expect, it } from 'vitest';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET } from './support/env.ts';
import { graphql } from './support/graphql.ts';
import { uniqueEmail } from './support/registration.ts';

const JOIN = /* GraphQL */ `
  mutation join($token: String!, $language: String) {
    joinWaitlist(token: $token, language: $language) { outcome email userErrors { code field messageId } }
  }
`;
const LOBBY_TOKEN = 'query lobby($token: String!) { lobbyToken(token: $token) { email userErrors { code field messageId } } }';

interface JoinPayload {
  outcome: string | null;
  email: string | null;
  userErrors: UserError[];
}

const DAY = 86_400;

/** Every kind of refused token, built the way each would reach the lobby. */
async function badTokens(): Promise<[string, string, string][]> {
  const good = await signLobbyToken({ email: 'anna@example.test' }, TEST_SECRET, DAY);
  const [header, payload, signature] = good.split('.') as [string, string, string];
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), email: 'eve@example.test' }));
  const iat = Math.floor(Date.now() / 1000);
  const withoutEmail = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'velvet-lobby+jwt' })
    .setIssuer('velvet-rope')
    .setAudience('velvet-rope:lobby')
    .setIssuedAt(iat)
    .setExpirationTime(iat + 60)
    .sign(await derivePurposeKey(TEST_SECRET, 'lobby'));
  return [
    ['an empty token', '', 'TOKEN_MISSING'],
    ['a tampered token', [header, forged.toString('base64url'), signature].join('.'), 'TOKEN_INVALID'],
    ['a token signed with another secret', await signLobbyToken({ email: 'anna@example.test' }, 'another-secret-0123456789-0123456789', DAY), 'TOKEN_INVALID'],
    ['garbage', 'not.a.token', 'TOKEN_INVALID'],
    ['an expired token', await signLobbyToken({ email: 'anna@example.test' }, TEST_SECRET, 60, new Date(Date.now() - 3_600_000)), 'TOKEN_EXPIRED'],
    ['a token without an email', withoutEmail, 'TOKEN_NO_EMAIL'],
    [
      'a social token used as a lobby token',
      await signSocialToken({ email: 'anna@example.test', emailVerified: true, provider: 'google', subject: '1' }, TEST_SECRET, 900),
      'TOKEN_INVALID',
    ],
  ];
}

describe.each(ENGINES)('waiting list on %s', (engine) => {
  const { database, api } = engineApi(engine);

  async function join(token: string, language?: string | null): Promise<JoinPayload> {
    const { status, body } = await graphql<{ joinWaitlist: JoinPayload }>(api.yoga, JOIN, { variables: { token, language } });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const payload = body.data?.joinWaitlist;
    if (!payload) throw new Error('no joinWaitlist payload');
    // outcome is null exactly when the token was refused
    expect(payload.outcome === null).toBe(payload.userErrors.length > 0);
    return payload;
  }

  const entries = () => database.db.selectFrom('waitlist_entries').selectAll().execute();

  it("puts the token's address on the list → JOINED, with language, join and consent time", async () => {
    const email = uniqueEmail('Lobby');
    const joinedAt = api.clock.fix('2026-11-24T17:45:12.345Z');
    const payload = await join(await signLobbyToken({ email }, TEST_SECRET, 30 * DAY, joinedAt), 'DE');
    expect(payload).toEqual({ outcome: 'JOINED', email: email.toLowerCase(), userErrors: [] });
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: email.toLowerCase(), language: 'de', invited_at: null, registration_code_id: null });
    expect(rows[0]?.joined_at).toBe(joinedAt.toISOString());
    expect(rows[0]?.consent_at).toBe(rows[0]?.joined_at);
  });

  it.each([
    ['no language', null],
    ['an unknown language', 'es'],
    ['garbage', '<script>'],
  ])('falls back to English for %s', async (_label, language) => {
    await join(await signLobbyToken({ email: uniqueEmail() }, TEST_SECRET, DAY), language);
    expect((await entries())[0]?.language).toBe('en');
  });

  it('answers ALREADY_ON_LIST the second time, keeping the one entry as it was', async () => {
    const email = uniqueEmail();
    const token = await signLobbyToken({ email }, TEST_SECRET, DAY);
    expect((await join(token, 'fr')).outcome).toBe('JOINED');
    const [first] = await entries();
    // Another link for the same address (upper-cased) and another language: still one entry.
    const again = await join(await signLobbyToken({ email: email.toUpperCase() }, TEST_SECRET, DAY), 'sv');
    expect(again).toEqual({ outcome: 'ALREADY_ON_LIST', email, userErrors: [] });
    expect(await entries()).toEqual([first]);
  });

  it('answers two joins of one address at once with one entry', async () => {
    const token = await signLobbyToken({ email: uniqueEmail() }, TEST_SECRET, DAY);
    const results = await Promise.all([join(token), join(token), join(token)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['ALREADY_ON_LIST', 'ALREADY_ON_LIST', 'JOINED']);
    expect(await entries()).toHaveLength(1);
  });

  it('refuses every kind of bad token with its TOKEN_* user error and writes nothing', async () => {
    for (const [label, token, expected] of await badTokens()) {
      expect(await join(token), label).toEqual({ outcome: null, email: null, userErrors: [{ code: expected, field: 'token', messageId: 'deny.invalid' }] });
    }
    expect(await entries()).toEqual([]);
  });

  describe('lobbyToken', () => {
    it("gives a good token's address", async () => {
      const { body } = await graphql<{ lobbyToken: { email: string | null; userErrors: UserError[] } }>(api.yoga, LOBBY_TOKEN, {
        variables: { token: await signLobbyToken({ email: 'Anna@Example.test' }, TEST_SECRET, DAY) },
      });
      expect(body).toEqual({ data: { lobbyToken: { email: 'anna@example.test', userErrors: [] } } });
    });

    it('gives the reason for every bad token', async () => {
      for (const [label, token, expected] of await badTokens()) {
        const { body } = await graphql<{ lobbyToken: unknown }>(api.yoga, LOBBY_TOKEN, { variables: { token } });
        expect(body.data?.lobbyToken, label).toEqual({ email: null, userErrors: [{ code: expected, field: 'token', messageId: 'deny.invalid' }] });
      }
      expect(await entries()).toEqual([]);
    });
  });
});
