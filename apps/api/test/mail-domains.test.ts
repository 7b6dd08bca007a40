/**
 * Addresses that can receive mail (issue 12 §3, ADR 042), asked of a real DNS server on loopback
 * (support/dns-server.ts): disposable domains refused from the maintained list, domains without
 * MX (or A/AAAA) refused, a null MX refused; DNS that does not answer never blocks a sign-up —
 * the address is accepted and flagged.
 */
import { catalogs } from '@velvet/i18n/catalogs';
import { LOCALES } from '@velvet/i18n/locales';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMailAddress, createMailDomainChecker, isDisposableDomain } from '../src/domain/mail-domains.ts';
import { startDnsServer, type TestDnsServer } from './support/dns-server.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { parseEnv } from '../src/config.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { REGISTER, type RegisterPayload, validInput } from './support/registration.ts';

const ZONE = {
  'club-mail.example': { MX: [{ exchange: 'mx1.club-mail.example', priority: 10 }] },
  'only-a.example': { A: ['192.0.2.10'] },
  'only-aaaa.example': { AAAA: ['2001:db8::10'] },
  'null-mx.example': { MX: [{ exchange: '', priority: 0 }], A: ['192.0.2.11'] },
  'parked.example': {},
};
const SILENT = ['slow-dns.example'];

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer(ZONE, { silent: SILENT });
});
afterAll(async () => {
  await dns.close();
});

describe('the disposable-address list', () => {
  it('comes from the maintained package and covers subdomains', () => {
    for (const domain of ['mailinator.com', 'guerrillamail.com', 'yopmail.com', 'inbox.mailinator.com']) expect(isDisposableDomain(domain), domain).toBe(true);
    for (const domain of ['gmail.com', 'web.de', 'example.com', 'velvetrope.example']) expect(isDisposableDomain(domain), domain).toBe(false);
  });

  it('has its message in the seven languages', () => {
    for (const locale of LOCALES) {
      expect(catalogs[locale]['validation.disposableEmail'], locale).toBeTruthy();
      expect(catalogs[locale]['validation.emailDomain'], locale).toBeTruthy();
    }
    expect(catalogs.en['validation.disposableEmail']).toBe('Please use your personal email address');
  });
});

describe('asking DNS whether a domain receives mail', () => {
  const checker = () => createMailDomainChecker({ servers: [dns.address], timeoutMs: 300 });

  it('accepts a domain with an MX, or with only an address (A or AAAA)', async () => {
    const ask = checker();
    expect(await ask.check('club-mail.example')).toBe('deliverable');
    expect(await ask.check('only-a.example')).toBe('deliverable');
    expect(await ask.check('only-aaaa.example')).toBe('deliverable');
  });

  it('refuses a domain that does not exist, one with neither MX nor address, and a null MX', async () => {
    const ask = checker();
    expect(await ask.check('no-such-domain.example')).toBe('undeliverable');
    expect(await ask.check('parked.example')).toBe('undeliverable');
    expect(await ask.check('null-mx.example')).toBe('undeliverable');
  });

  it('cannot tell when the resolver never answers or is not there, and says so', async () => {
    expect(await checker().check('slow-dns.example')).toBe('unknown');
    const nobody = createMailDomainChecker({ servers: ['127.0.0.1:9'], timeoutMs: 300 });
    expect(await nobody.check('club-mail.example')).toBe('unknown');
  });

  it('asks once per domain for a while, and again after an unanswered question', async () => {
    const ask = checker();
    const before = dns.questions.filter((q) => q === 'club-mail.example MX').length;
    await ask.check('club-mail.example');
    await ask.check('club-mail.example');
    expect(dns.questions.filter((q) => q === 'club-mail.example MX').length).toBe(before + 1);
    const silentBefore = dns.questions.filter((q) => q.startsWith('slow-dns.example MX')).length;
    await ask.check('slow-dns.example');
    await ask.check('slow-dns.example');
    expect(dns.questions.filter((q) => q.startsWith('slow-dns.example MX')).length).toBe(silentBefore + 2);
  });

  it('refuses disposable domains without asking DNS', async () => {
    const before = dns.questions.length;
    expect(await checkMailAddress('someone@mailinator.com', checker())).toEqual({ ok: false, messageId: 'validation.disposableEmail' });
    expect(dns.questions.length).toBe(before);
  });
});

const APPLY = 'mutation a($email: String!) { applyForMembership(email: $email) { accepted userErrors { code field messageId } } }';
const LOBBY = 'mutation l($email: String!) { requestLobbyLink(email: $email) { sent userErrors { code field messageId } } }';

describe.each(ENGINES)('the sign-up forms with DNS on loopback, on %s', (engine) => {
  const env = testEnv({ EMAIL_DOMAIN_CHECK: 'true', EMAIL_DNS_SERVERS: '127.0.0.1:1', EMAIL_DNS_TIMEOUT_MS: '300' });
  // The server's port is known only once it listens: the env is completed before the API is built.
  const { database, api } = engineApi(engine, {
    env,
    api: () => {
      env.EMAIL_DNS_SERVERS = dns.address;
      return {};
    },
  });

  const register = async (email: string) => {
    const { code } = await insertCode(database.db);
    const { body } = await graphql<{ register: RegisterPayload }>(api.yoga, REGISTER, { variables: { input: validInput(code, { email }) } });
    return body.data!.register;
  };

  it('refuses a disposable address and a domain that receives no mail, in the form\'s field, and writes nothing', async () => {
    expect((await register('anna@mailinator.com')).userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.disposableEmail' }]);
    expect((await register('anna@parked.example')).userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.emailDomain' }]);
    expect((await graphql(api.yoga, APPLY, { variables: { email: 'anna@null-mx.example' } })).body.data).toEqual({
      applyForMembership: { accepted: false, userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.emailDomain' }] },
    });
    expect((await graphql(api.yoga, LOBBY, { variables: { email: 'anna@yopmail.com' } })).body.data).toEqual({
      requestLobbyLink: { sent: false, userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.disposableEmail' }] },
    });
    expect(await database.db.selectFrom('members').select('id').where('status', '=', 'pending').execute()).toEqual([]);
    expect(await database.db.selectFrom('email_outbox').select('id').execute()).toEqual([]);
  });

  it('registers an address whose domain receives mail, unflagged', async () => {
    expect((await register('anna@club-mail.example')).outcome).toBe('FORM_FINISHED');
    const member = await database.db.selectFrom('members').select('mail_domain_unverified').where('email', '=', 'anna@club-mail.example').executeTakeFirstOrThrow();
    expect(member.mail_domain_unverified).toBe(false);
  });

  it('accepts and flags an address whose DNS does not answer: registration and membership interest go on', async () => {
    expect((await register('anna@slow-dns.example')).outcome).toBe('FORM_FINISHED');
    const member = await database.db.selectFrom('members').select('mail_domain_unverified').where('email', '=', 'anna@slow-dns.example').executeTakeFirstOrThrow();
    expect(member.mail_domain_unverified).toBe(true);
    expect((await graphql(api.yoga, APPLY, { variables: { email: 'ben@slow-dns.example' } })).body.data).toEqual({ applyForMembership: { accepted: true, userErrors: [] } });
    const application = await database.db.selectFrom('membership_applications').select('mail_domain_unverified').where('email', '=', 'ben@slow-dns.example').executeTakeFirstOrThrow();
    expect(application.mail_domain_unverified).toBe(true);
  });
});

describe('when the check is on', () => {
  // Parsed as a process would, without the tests' own default (off).
  const parsed = (vars: Record<string, string>) => parseEnv({ APP_SECRET: TEST_SECRET, DATA_DIR: testEnv().DATA_DIR, ...vars });
  it('is on for a deployment and off for a local instance unless it has its own resolver', () => {
    expect(parsed({}).EMAIL_DOMAIN_CHECK).toBe(false);
    expect(parsed({ EMAIL_DNS_SERVERS: '127.0.0.1:5353' }).EMAIL_DOMAIN_CHECK).toBe(true);
    expect(parsed({ PUBLIC_URL: 'https://club.example', SMTP_URL: 'smtp://127.0.0.1:25' }).EMAIL_DOMAIN_CHECK).toBe(true);
    expect(parsed({ PUBLIC_URL: 'https://club.example', SMTP_URL: 'smtp://127.0.0.1:25', EMAIL_DOMAIN_CHECK: 'false' }).EMAIL_DOMAIN_CHECK).toBe(false);
  });
});
