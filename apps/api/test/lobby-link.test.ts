/**
 * Mutation.requestLobbyLink (ADR 029) on SQLite and PostgreSQL: an address given on the site
 * gets the lobby link by email — over a real SMTP peer — and only that link puts it on the
 * waiting list; asking writes nothing to the list and hands nobody a lobby token.
 */
import type { UserError } from '@velvet/validation/user-errors';
import { catalogs } from '@velvet/i18n/catalogs';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { OutboxWorker } from '../src/mail/outbox-worker.ts';
import { createSmtpTransport } from '../src/mail/transport.ts';
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
      const link = /https:\/\/club\.example\/de\/lobby\?token=[\w.-]+/.exec(mail.text)?.[0];
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
