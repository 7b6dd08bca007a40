/**
 * Internationalised addresses (issue 20 §3, ADR 042), on SQLite and PostgreSQL, with DNS on
 * loopback and a real SMTP peer: a domain in any script is accepted, stored, checked against the
 * disposable list and DNS, and mailed in its ASCII (IDNA) form, so two spellings of it are one
 * member; letters beyond ASCII before the @ are refused with a message that says why.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { OutboxWorker } from '../src/mail/outbox-worker.ts';
import { createSmtpTransport } from '../src/mail/transport.ts';
import { startDnsServer, type TestDnsServer } from './support/dns-server.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { REGISTER, type RegisterPayload, validInput } from './support/registration.ts';
import { startSmtpPeer } from './support/smtp.ts';

const MX = { MX: [{ exchange: 'mx.example.net', priority: 10 }] };
/** müller.de and żółw.pl, as DNS knows them; example.com takes mail here too. */
const ZONE = { 'xn--mller-kva.de': MX, 'xn--w-uga1v8h.pl': MX, 'example.com': MX };

const APPLY = 'mutation a($email: String!) { applyForMembership(email: $email) { accepted userErrors { code field messageId } } }';
const LOBBY = 'mutation l($email: String!) { requestLobbyLink(email: $email) { sent userErrors { code field messageId } } }';
const LOCAL_PART_REFUSED = [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.emailInternationalLocalPart' }];

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer(ZONE);
});
afterAll(async () => {
  await dns.close();
});

describe.each(ENGINES)('internationalised addresses on %s', (engine) => {
  const env = testEnv({ PUBLIC_URL: 'https://club.example', MAIL_FROM: 'club@velvetrope.example', EMAIL_DOMAIN_CHECK: 'true', EMAIL_DNS_SERVERS: '127.0.0.1:1', EMAIL_DNS_TIMEOUT_MS: '300' });
  // The DNS server's port is known only once it listens: the env is completed before the API is built.
  const { database, api } = engineApi(engine, {
    env,
    api: () => {
      env.EMAIL_DNS_SERVERS = dns.address;
      return {};
    },
  });

  const register = async (email: string, code?: string) => {
    const invitation = code ?? (await insertCode(database.db, { balance: 5 })).code;
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(invitation, { email }) } });
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data.register;
  };
  const members = () => database.db.selectFrom('members').select(['email', 'mail_domain_unverified']).where('status', '=', 'pending').execute();

  it('registers anna@müller.de: one member, checked by DNS, stored and mailed as anna@xn--mller-kva.de', async () => {
    expect(await register('Anna@Müller.de')).toMatchObject({ outcome: 'FORM_FINISHED', userErrors: [] });
    expect(await members()).toEqual([{ email: 'anna@xn--mller-kva.de', mail_domain_unverified: false }]);
    // DNS was asked the name it knows (and answered: the member is not flagged).
    expect(dns.questions).toContain('xn--mller-kva.de MX');
    expect(await database.db.selectFrom('email_outbox').select('recipient').execute()).toEqual([{ recipient: 'anna@xn--mller-kva.de' }]);

    const peer = await startSmtpPeer(0);
    const transport = createSmtpTransport(peer.url);
    try {
      const worker = new OutboxWorker({ db: database.db, transport, env, logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), random: () => 0 });
      expect(await worker.runOnce()).toMatchObject({ sent: 1 });
      const [mail] = await peer.waitFor(1);
      // The message as sent (smtp-server shows envelope addresses in Unicode, whatever came over the wire).
      expect(mail?.headers.get('to')).toBe('anna@xn--mller-kva.de');
    } finally {
      await transport.close();
      await peer.close();
    }
  });

  it('takes the other spellings of the same address for that address, not a new member', async () => {
    const { code } = await insertCode(database.db, { balance: 5 });
    expect((await register('anna@müller.de', code)).outcome).toBe('FORM_FINISHED');
    for (const spelling of ['ANNA@MÜLLER.DE', 'anna@xn--mller-kva.de', 'anna@mu\u0308ller.de']) {
      expect((await register(spelling, code)).outcome, spelling).not.toBe('FORM_FINISHED');
    }
    expect(await members()).toEqual([{ email: 'anna@xn--mller-kva.de', mail_domain_unverified: false }]);
  });

  it('accepts an application from jan@żółw.pl, kept in ASCII', async () => {
    expect((await graphql(api.yoga, APPLY, { variables: { email: 'jan@żółw.pl' } })).body.data).toEqual({ applyForMembership: { accepted: true, userErrors: [] } });
    expect(await database.db.selectFrom('membership_applications').select('email').execute()).toEqual([{ email: 'jan@xn--w-uga1v8h.pl' }]);
  });

  it('checks a domain against the disposable list in ASCII: yahóo.com (xn--yaho-sqa.com) is refused', async () => {
    expect((await register('anna@yahóo.com')).userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.disposableEmail' }]);
  });

  it('refuses müller@example.com with the message that says why, on every form, and writes nothing', async () => {
    expect((await register('müller@example.com')).userErrors).toEqual(LOCAL_PART_REFUSED);
    expect((await graphql(api.yoga, APPLY, { variables: { email: 'müller@example.com' } })).body.data).toEqual({ applyForMembership: { accepted: false, userErrors: LOCAL_PART_REFUSED } });
    expect((await graphql(api.yoga, LOBBY, { variables: { email: 'пётр@example.com' } })).body.data).toEqual({ requestLobbyLink: { sent: false, userErrors: LOCAL_PART_REFUSED } });
    expect(await members()).toEqual([]);
    expect(await database.db.selectFrom('email_outbox').select('id').execute()).toEqual([]);
  });
});
