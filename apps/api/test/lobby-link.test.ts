/**
 * Mutation.requestLobbyLink (ADR 029) on SQLite and PostgreSQL: an address given on the site
 * gets the lobby link by email — over a real SMTP peer — and only that link puts it on the
 * waiting list; asking writes nothing to the list and hands nobody a lobby token. The link is
 * short (ADR 060): a 22-character reference stored only hashed, valid for 7 days as the signed
 * token was, as often as it is opened; links sent before keep working until they expire.
 */
import type { UserError } from '@velvet/validation/user-errors';
import { catalogs } from '@velvet/i18n/catalogs';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { OutboxWorker } from '../src/mail/outbox-worker.ts';
import { createSmtpTransport } from '../src/mail/transport.ts';
import { signLobbyToken } from '@velvet/tokens/signed-token';
import { hashToken } from '../src/lib/tokens.ts';
import { enqueueEmail, sealForOutbox } from '../src/mail/outbox.ts';
import { LOBBY_LINKS_PER_HOUR } from '../src/services/request-lobby-link.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { testEnv } from './support/env.ts';
import { graphql } from './support/graphql.ts';
import { uniqueEmail } from './support/registration.ts';
import { startSmtpPeer } from './support/smtp.ts';

const REQUEST = /* GraphQL */ `
  mutation request($email: String!, $language: String) {
    requestLobbyLink(email: $email, language: $language) { sent userErrors { code field messageId } }
  }
`;
const JOIN = 'mutation join($token: String!) { joinWaitlist(token: $token, language: "de") { outcome email userErrors { code field messageId } } }';
const DESCRIBE = 'query lobby($token: String!) { lobbyToken(token: $token) { email onWaitlist userErrors { code } } }';
const DAY_MS = 86_400_000;

describe.each(ENGINES)('requestLobbyLink on %s', (engine) => {
  const { database, api, env } = engineApi(engine, { env: testEnv({ PUBLIC_URL: 'https://club.example', MAIL_FROM: 'club@velvetrope.example' }) });

  const request = async (email: string, language = 'de') => {
    const { body } = await graphql<{ requestLobbyLink: { sent: boolean; userErrors: UserError[] } }>(api.yoga, REQUEST, {
      variables: { email, language },
    });
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data.requestLobbyLink;
  };
  const waitlist = () => database.db.selectFrom('waitlist_entries').select('email').execute();
  const join = async (token: string) => (await graphql<{ joinWaitlist: unknown }>(api.yoga, JOIN, { variables: { token } })).body.data?.joinWaitlist;
  const describeLink = async (token: string) => (await graphql<{ lobbyToken: unknown }>(api.yoga, DESCRIBE, { variables: { token } })).body.data?.lobbyToken;

  /** Sends the outbox's pending emails over a real SMTP peer and returns them. */
  async function deliver(count: number) {
    const peer = await startSmtpPeer(0);
    const transport = createSmtpTransport(peer.url);
    try {
      const worker = new OutboxWorker({ db: database.db, transport, env, logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), random: () => 0, now: () => api.clock() });
      expect(await worker.runOnce()).toMatchObject({ sent: count });
      return await peer.waitFor(count);
    } finally {
      await transport.close();
      await peer.close();
    }
  }

  /** The lobby link of the one email sent to `email`, and its ?token= value. */
  async function emailedLink(email: string): Promise<{ link: string; token: string }> {
    expect(await request(email)).toEqual({ sent: true, userErrors: [] });
    const [mail] = await deliver(1);
    const link = /https:\/\/club\.example\/de\/lobby\?token=[\w.-]+/.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error(`no lobby link in ${mail?.text}`);
    return { link, token: new URL(link).searchParams.get('token') ?? '' };
  }

  it('the emailed link is short: a reference stored only as its hash, good for 7 days, as often as it is opened', async () => {
    const email = uniqueEmail('short');
    const { link, token } = await emailedLink(email);
    // One line in any mail client, not five: the path and query well under 80 characters.
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const { pathname, search } = new URL(link);
    expect(`${pathname}${search}`.length).toBeLessThan(80);
    // Stored only hashed: neither the link table nor the outbox row holds the reference in clear.
    const stored = await database.db.selectFrom('lobby_links').selectAll().execute();
    expect(stored).toEqual([{ reference_hash: hashToken(token), email, created_at: expect.anything(), expires_at: expect.anything() }]);
    expect(JSON.stringify(stored)).not.toContain(token);
    const row = await database.db.selectFrom('email_outbox').select('payload').where('recipient', '=', email).executeTakeFirstOrThrow();
    expect(row.payload).not.toContain(token);

    expect(await describeLink(token)).toEqual({ email, onWaitlist: false, userErrors: [] });
    expect(await join(token)).toEqual({ outcome: 'JOINED', email, userErrors: [] });
    // Opened again, as the signed token could be: the lobby says "already on the list".
    expect(await describeLink(token)).toEqual({ email, onWaitlist: true, userErrors: [] });
    expect(await join(token)).toEqual({ outcome: 'ALREADY_ON_LIST', email, userErrors: [] });
    expect(await waitlist()).toEqual([{ email }]);
  });

  it('refuses an unknown, altered or expired reference, and writes nothing', async () => {
    const email = uniqueEmail('refused');
    const { token } = await emailedLink(email);
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const unknown of [altered, 'AAAAAAAAAAAAAAAAAAAAAA']) {
      expect(await describeLink(unknown)).toEqual({ email: null, onWaitlist: false, userErrors: [{ code: 'TOKEN_INVALID' }] });
      expect(await join(unknown)).toMatchObject({ outcome: null, email: null, userErrors: [{ code: 'TOKEN_INVALID' }] });
    }
    // Seven days later, to the second, the link has expired like the signed token it replaces.
    api.clock.fix(new Date(Date.now() + 7 * DAY_MS + 1000));
    expect(await describeLink(token)).toEqual({ email: null, onWaitlist: false, userErrors: [{ code: 'TOKEN_EXPIRED' }] });
    expect(await join(token)).toMatchObject({ outcome: null, userErrors: [{ code: 'TOKEN_EXPIRED' }] });
    expect(await waitlist()).toEqual([]);
  });

  it('a lobby email queued before the short links still sends its signed token, and that link still joins', async () => {
    const email = uniqueEmail('older');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 7 * DAY_MS);
    const token = await signLobbyToken({ email }, env.APP_SECRET, 7 * 86_400, now);
    await enqueueEmail(database.db, { template: 'lobby', recipient: email, locale: 'de', payload: { sealedToken: sealForOutbox(token, env.APP_SECRET), expiresAt: expiresAt.toISOString() } }, now);
    const [mail] = await deliver(1);
    expect(mail?.text).toContain(`https://club.example/de/lobby?token=${token}`);
    expect(await join(token)).toEqual({ outcome: 'JOINED', email, userErrors: [] });
  });

  it('emails the lobby link to the address; only that link puts it on the list', async () => {
    const email = uniqueEmail('owner');
    expect(await request(` ${email.toUpperCase()} `)).toEqual({ sent: true, userErrors: [] });
    // Asking is not joining: nothing on the list, and the answer carries no token.
    expect(await waitlist()).toEqual([]);

    const peer = await startSmtpPeer(0);
    const transport = createSmtpTransport(peer.url);
    try {
      const worker = new OutboxWorker({ db: database.db, transport, env, logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), random: () => 0 });
      expect(await worker.runOnce()).toMatchObject({ sent: 1 });
      const [mail] = await peer.waitFor(1);
      if (!mail) throw new Error('no mail');
      expect(mail.to).toEqual([email]);
      expect(mail.subject).toBe(catalogs.de['email.lobby.subject']);
      expect(mail.text).toContain(catalogs.de['email.lobby.notYou']);
      const link = /https:\/\/club\.example\/de\/lobby\?token=[\w-]+/.exec(mail.text)?.[0];
      if (!link) throw new Error(`no lobby link in ${mail.text}`);
      // The outbox never held the token in clear.
      const row = await database.db.selectFrom('email_outbox').select('payload').where('recipient', '=', email).executeTakeFirstOrThrow();
      const token = new URL(link).searchParams.get('token') ?? '';
      expect(row.payload).not.toContain(token);

      const { body } = await graphql<{ joinWaitlist: { outcome: string; email: string } }>(api.yoga, JOIN, { variables: { token } });
      expect(body.data?.joinWaitlist).toEqual({ outcome: 'JOINED', email, userErrors: [] });
      expect(await waitlist()).toEqual([{ email }]);
    } finally {
      await transport.close();
      await peer.close();
    }
  });

  it(`sends one address at most ${LOBBY_LINKS_PER_HOUR} emails an hour, with the same answer beyond`, async () => {
    const email = uniqueEmail('target');
    for (let i = 0; i < LOBBY_LINKS_PER_HOUR + 2; i++) expect(await request(email)).toEqual({ sent: true, userErrors: [] });
    const rows = await database.db.selectFrom('email_outbox').select('id').where('recipient', '=', email).execute();
    expect(rows).toHaveLength(LOBBY_LINKS_PER_HOUR);
    api.clock.fix(new Date(Date.now() + 61 * 60_000));
    await request(email);
    expect(await database.db.selectFrom('email_outbox').select('id').where('recipient', '=', email).execute()).toHaveLength(LOBBY_LINKS_PER_HOUR + 1);
  });

  it('refuses a malformed address and writes nothing', async () => {
    expect(await request('not an address')).toEqual({ sent: false, userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.email' }] });
    expect(await database.db.selectFrom('email_outbox').select('id').execute()).toEqual([]);
  });
});
