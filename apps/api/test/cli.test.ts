/** The admin CLI as an operator runs it: a child process with DATABASE_URL pointing at a temp SQLite file. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyLobbyToken } from '@velvet/tokens/signed-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/connect.ts';
import { enqueueEmail } from '../src/mail/outbox.ts';
import type { DatabaseConnection } from '../src/db/connect.ts';
import { recordCodeSignal } from '../src/domain/code-signals.ts';
import { CODE_ALPHABET } from '../src/domain/random-codes.ts';
import { verifyValidityTimestamp } from '../src/domain/registration-link.ts';
import { createTestApi } from './support/api.ts';
import { runCli } from './support/cli.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { CHECK_CODE, graphql } from './support/graphql.ts';
import type { CodeDetails } from './support/graphql.ts';
import { insertMember } from './support/factories.ts';
import { deliverAll, insertApplication, insertWaitlistEntry } from './support/invitations.ts';


describe('admin CLI', () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'velvet-cli-'));
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      NODE_ENV: 'test',
      DATA_DIR: dir,
      DATABASE_URL: `file:${path.join(dir, 'cli.sqlite')}`,
      APP_SECRET: TEST_SECRET,
      PUBLIC_URL: 'https://club.example',
      SEED_DEMO: 'false',
    };
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[], extraEnv: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extraEnv } });

  it('creates a code that `code list` then shows', async () => {
    const created = await cli([
      'code', 'create', '--inviter', 'Clara', '--balance', '7', '--code', 'cli-test-1',
      '--expires', '2030-01-31', '--customization', 'social-10-percent-no-mov', '--slug', 'clara',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('created registration code CLI-TEST-1');

    const list = await cli(['code', 'list']);
    expect(list.code).toBe(0);
    const line = list.stdout.split('\n').find((l) => l.startsWith('CLI-TEST-1'));
    expect(line).toMatch(/^CLI-TEST-1\s+Clara\s+7\s+0\s+2030-01-31T00:00:00.000Z\s+social-10-percent-no-mov\s+valid$/);

    const json = await cli(['code', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toContainEqual(
      expect.objectContaining({ code: 'CLI-TEST-1', inviter: 'Clara', balance: 7, pending: 0, state: 'valid', landingSlug: 'clara' }),
    );
  });

  it.each([
    [['code', 'create', '--inviter', 'X', '--balance', '-1'], /balance.*non-negative/],
    [['code', 'create', '--inviter', 'X', '--balance', 'ten'], /balance.*non-negative/],
    [['code', 'create', '--inviter', 'X', '--balance', '1', '--expires', 'tomorrow'], /ISO 8601/],
    [['code', 'create', '--inviter', 'X', '--balance', '1', '--customization', 'fancy'], /Allowed choices/],
    [['code', 'create', '--inviter', 'X', '--balance', '1', '--code', 'no spaces'], /4-64 letters/],
    [['code', 'create', '--balance', '1'], /--inviter/],
    [['code', 'explode'], /unknown command/],
    [['link', 'create', '--code', 'NOPE-NOPE'], /does not exist/],
    [['admin', 'create', '--email', 'ops@example.test', '--password', 'short'], /at least 12/],
    [['admin', 'create', '--email', 'nope', '--password', 'long enough password'], /valid email/],
    [['waitlist', 'invite'], /--count/],
    [['waitlist', 'invite', '--count', '0'], /whole number from 1 to 10000/],
    [['interest', 'select', '--email', 'nobody@example.test'], /no membership application from nobody@example.test/],
    [['interest', 'select', '--email', 'nope'], /nope is not a valid email address/],
    [['token', 'lobby', '--email', 'nope'], /valid email address/],
    [['token', 'lobby', '--email', 'a@example.test', '--days', '0'], /whole number from 1 to 365/],
    [['member', 'block', '--email', 'nobody@example.test'], /^error: no member with the address nobody@example\.test\n$/],
    [['member', 'unblock', '--email', 'nobody@example.test'], /^error: no member with the address nobody@example\.test\n$/],
    [['member', 'block', '--email', 'nope'], /valid email address/],
    [['member', 'block'], /--email/],
  ])('exits 2 with a message for %j', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('refuses a duplicate code with exit code 2', async () => {
    expect((await cli(['code', 'create', '--inviter', 'Dup', '--balance', '1', '--code', 'DUP-CODE'])).code).toBe(0);
    const again = await cli(['code', 'create', '--inviter', 'Dup', '--balance', '1', '--code', 'dup-code']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('registration code DUP-CODE already exists');
  });

  it('prints the created code as JSON with `code create --json`, its inviter an active member', async () => {
    const { url, database } = await freshDatabase('code-json');
    try {
      const run = await cli(
        [
          'code', 'create', '--json', '--inviter', ' Zoë ', '--balance', '3', '--code', 'json-test', '--expires', '2030-01-31',
          '--customization', 'social-15-percent-mov', '--slug', 'VIP', '--requires-timestamp',
        ],
        { DATABASE_URL: url },
      );
      expect(run).toMatchObject({ code: 0, stderr: '' });
      const created = JSON.parse(run.stdout) as { inviterEmail: string; inviterMemberId: string };
      const uuid = expect.stringMatching(/^[0-9a-f-]{36}$/);
      expect(created).toEqual({
        id: uuid,
        code: 'JSON-TEST',
        inviter: 'Zoë',
        inviterMemberId: uuid,
        inviterEmail: expect.stringMatching(/^inviter\+zoe-[0-9a-f]{8}@members\.velvetrope\.localhost$/),
        balance: 3,
        expiresAt: '2030-01-31T00:00:00.000Z',
        customization: 'social-15-percent-mov',
        landingSlug: 'vip',
        requiresValidityTimestamp: true,
      });
      const inviter = await database.db.selectFrom('members').select(['id', 'first_name', 'status']).where('email', '=', created.inviterEmail).executeTakeFirst();
      expect(inviter).toEqual({ id: created.inviterMemberId, first_name: 'Zoë', status: 'active' });

      // Without --code one is drawn from the club's alphabet; each call makes a new inviter.
      const generated = await cli(['code', 'create', '--json', '--inviter', 'Zoë', '--balance', '0'], { DATABASE_URL: url });
      expect(generated).toMatchObject({ code: 0, stderr: '' });
      const second = JSON.parse(generated.stdout) as { inviterEmail: string };
      expect(second.inviterEmail).not.toBe(created.inviterEmail);
      expect(second).toMatchObject({
        code: expect.stringMatching(new RegExp(`^[${CODE_ALPHABET}]{8}$`)),
        balance: 0,
        expiresAt: null,
        customization: null,
        landingSlug: null,
        requiresValidityTimestamp: false,
      });

      // A refusal prints nothing a script could take for a code.
      const duplicate = await cli(['code', 'create', '--json', '--inviter', 'Zoë', '--balance', '1', '--code', 'JSON-TEST'], { DATABASE_URL: url });
      expect(duplicate).toMatchObject({ code: 2, stdout: '', stderr: 'error: registration code JSON-TEST already exists\n' });
    } finally {
      await database.close();
    }
  });

  it('blocks an inviter with `member block`: their code answers INVITER_INVALID until `member unblock`', async () => {
    const { url, database } = await freshDatabase('member-block');
    const api = await createTestApi({ env: testEnv(), db: database.db });
    const check = async (code: string) =>
      (await graphql<{ registrationCodeDetails: CodeDetails }>(api.yoga, CHECK_CODE, { variables: { registrationCode: code } })).body.data
        ?.registrationCodeDetails;
    try {
      const { code, inviterEmail } = JSON.parse((await cli(['code', 'create', '--json', '--inviter', 'Eva', '--balance', '10'], { DATABASE_URL: url })).stdout) as {
        code: string;
        inviterEmail: string;
      };
      expect(await check(code)).toMatchObject({ errors: [], invitorName: 'Eva' });

      const blocked = await cli(['member', 'block', '--email', inviterEmail.toUpperCase()], { DATABASE_URL: url });
      expect(blocked).toEqual({ code: 0, stdout: `${inviterEmail} is blocked now\n`, stderr: '' });
      expect(await check(code)).toMatchObject({ errors: ['INVITER_INVALID'], countryOptions: [] });

      const unblocked = await cli(['member', 'unblock', '--email', inviterEmail], { DATABASE_URL: url });
      expect(unblocked).toEqual({ code: 0, stdout: `${inviterEmail} is active now\n`, stderr: '' });
      expect(await check(code)).toMatchObject({ errors: [], invitorName: 'Eva' });

      const again = await cli(['member', 'unblock', '--email', inviterEmail], { DATABASE_URL: url });
      expect(again).toMatchObject({ code: 2, stdout: '', stderr: `error: ${inviterEmail} is not blocked\n` });
    } finally {
      await api.close();
      await database.close();
    }
  });

  it('unblocks a registration that was never activated back to pending, not active', async () => {
    const { url, database } = await freshDatabase('member-unblock-pending');
    try {
      await insertMember(database.db, { email: 'paula@example.test', status: 'pending' });
      const status = async () =>
        (await database.db.selectFrom('members').select('status').where('email', '=', 'paula@example.test').executeTakeFirstOrThrow()).status;
      expect((await cli(['member', 'block', '--email', 'paula@example.test'], { DATABASE_URL: url })).stdout).toBe('paula@example.test is blocked now\n');
      expect(await status()).toBe('blocked');
      expect((await cli(['member', 'unblock', '--email', 'paula@example.test'], { DATABASE_URL: url })).stdout).toBe('paula@example.test is pending now\n');
      expect(await status()).toBe('pending');
    } finally {
      await database.close();
    }
  });

  it('prints a registration link that verifies for 14 days', async () => {
    await cli(['code', 'create', '--inviter', 'Lena', '--balance', '2', '--code', 'LINK-TEST', '--requires-timestamp']);
    const run = await cli(['link', 'create', '--code', 'link-test']);
    expect(run.code).toBe(0);
    const url = new URL(run.stdout.trim());
    expect(url.origin).toBe('https://club.example');
    expect(url.searchParams.get('rc')).toBe('LINK-TEST');
    const check = verifyValidityTimestamp('LINK-TEST', url.searchParams.get('validityTimestamp') ?? '', TEST_SECRET);
    expect(check.ok).toBe(true);
    if (check.ok) {
      const days = (check.expiresAt.getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(13.99);
      expect(days).toBeLessThanOrEqual(14);
    }
    const based = await cli(['link', 'create', '--code', 'LINK-TEST', '--base', 'http://localhost:3000/']);
    expect(based.stdout).toMatch(/^http:\/\/localhost:3000\/\?rc=LINK-TEST&validityTimestamp=\d+\.[\w-]{43}\n$/);
  });

  it('creates an admin user, generating the password when none is given', async () => {
    const generated = await cli(['admin', 'create', '--email', 'Ops@Example.test']);
    expect(generated.code).toBe(0);
    expect(generated.stdout).toContain('created admin user ops@example.test');
    expect(generated.stdout).toMatch(/generated password \(shown once, store it now\): [\w-]{24}/);
    const fromEnv = await cli(['admin', 'create', '--email', 'env@example.test'], { ADMIN_PASSWORD: 'from the environment' });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).not.toContain('generated password');
  });

  it('migrates and seeds on request, respecting SEED_DEMO', async () => {
    const fresh = { DATABASE_URL: `file:${path.join(dir, 'seed.sqlite')}` };
    expect((await cli(['migrate'], fresh)).stdout).toContain('applied: 0001-initial');
    expect((await cli(['migrate'], fresh)).stdout).toContain('already up to date');
    expect((await cli(['seed'], fresh)).stdout).toContain('not seeded: SEED_DEMO is false');
    expect((await cli(['seed'], { ...fresh, SEED_DEMO: 'true' })).stdout).toContain('seeded 7 demo registration codes');
    expect((await cli(['seed'], { ...fresh, SEED_DEMO: 'true' })).stdout).toContain('already has members');
    const list = await cli(['code', 'list'], fresh);
    for (const code of ['WELCOME2026', 'VIP-ANNA', 'EXPIRED2025', 'NOBALANCE', 'FULLHOUSE', 'BLOCKED', 'LINKONLY']) {
      expect(list.stdout).toContain(code);
    }
    expect(list.stdout).toMatch(/FULLHOUSE\s+Lukas\s+2\s+2\s+-\s+-\s+full/);
  });

  it('lists the outbox and makes a failed email due again with `mail retry`', async () => {
    expect((await cli(['migrate'])).code).toBe(0);
    const database = connectDatabase(env.DATABASE_URL ?? '');
    const row = (id: string, status: 'failed' | 'sent', attempts: number) => ({
      id,
      recipient: 'someone@example.test',
      template: 'activation',
      locale: 'en',
      payload: '{}',
      status,
      attempts,
      next_attempt_at: '2026-11-01T10:00:00.000Z',
      locked_until: null,
      last_error: status === 'failed' ? 'Error: connect ECONNREFUSED' : null,
      created_at: '2026-11-01T10:00:00.000Z',
      sent_at: status === 'sent' ? '2026-11-01T10:00:01.000Z' : null,
    });
    try {
      await database.db.insertInto('email_outbox').values([row('mail-failed-1', 'failed', 10), row('mail-sent-1', 'sent', 1)]).execute();
    } finally {
      await database.close();
    }
    const list = await cli(['mail', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+TEMPLATE\s+STATUS\s+ATTEMPTS\s+CREATED/);
    expect(list.stdout).toMatch(/mail-failed-1\s+activation\s+failed\s+10\s+2026-11-01T10:00:00.000Z/);
    expect(list.stdout).not.toContain('someone@example.test');

    const retry = await cli(['mail', 'retry', '--id', 'mail-failed-1']);
    expect(retry).toMatchObject({ code: 0, stderr: '' });
    const json = JSON.parse((await cli(['mail', 'list', '--json', '--status', 'pending'])).stdout) as { id: string; attempts: number }[];
    expect(json).toEqual([expect.objectContaining({ id: 'mail-failed-1', attempts: 0 })]);

    const sent = await cli(['mail', 'retry', '--id', 'mail-sent-1']);
    expect(sent.code).toBe(2);
    expect(sent.stderr).toContain('already sent');
    const unknown = await cli(['mail', 'retry', '--id', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no outbox row nope');
  });

  it('seeds the admin user named by ADMIN_EMAIL and ADMIN_PASSWORD once', async () => {
    const fresh = { DATABASE_URL: `file:${path.join(dir, 'admin-seed.sqlite')}` };
    const admin = { ADMIN_EMAIL: 'Boss@Example.test', ADMIN_PASSWORD: 'a long admin password' };
    expect((await cli(['seed'], { ...fresh, ...admin })).stdout).toContain('created the admin user named by ADMIN_EMAIL');
    expect((await cli(['seed'], { ...fresh, ...admin })).stdout).toContain('already exists');
    expect((await cli(['seed'], { ...fresh, ADMIN_EMAIL: 'other@example.test' })).stdout).not.toContain('admin');
  });

  /** A fresh, migrated SQLite file for one test, and a connection to it. */
  async function freshDatabase(name: string): Promise<{ url: string; database: DatabaseConnection }> {
    const url = `file:${path.join(dir, `${name}.sqlite`)}`;
    expect((await cli(['migrate'], { DATABASE_URL: url })).code).toBe(0);
    return { url, database: connectDatabase(url) };
  }

  it('lists the waiting list as a table and as CSV, with its size', async () => {
    const { url, database } = await freshDatabase('waitlist-list');
    try {
      await insertWaitlistEntry(database.db, { email: 'anna@example.test', language: 'de', joinedAt: '2026-05-01T10:00:00.000Z' });
      await insertWaitlistEntry(database.db, { email: '=cmd|x@example.test', joinedAt: '2026-05-02T10:00:00.000Z' });
      // Joined the club meanwhile with a friend's invitation.
      await insertWaitlistEntry(database.db, { email: 'mia@example.test', joinedAt: '2026-05-03T10:00:00.000Z' });
      await insertMember(database.db, { email: 'mia@example.test', status: 'active' });
    } finally {
      await database.close();
    }
    const table = await cli(['waitlist', 'list'], { DATABASE_URL: url });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout.split('\n')).toEqual([
      expect.stringMatching(/^EMAIL\s+LANGUAGE\s+JOINED\s+INVITED\s+MEMBER$/),
      expect.stringMatching(/^anna@example\.test\s+de\s+2026-05-01T10:00:00\.000Z\s+-\s+-$/),
      expect.stringMatching(/^=cmd\|x@example\.test\s+en\s+2026-05-02T10:00:00\.000Z\s+-\s+-$/),
      expect.stringMatching(/^mia@example\.test\s+en\s+2026-05-03T10:00:00\.000Z\s+-\s+yes$/),
      '3 on the waiting list, 2 not invited yet, 1 already a member (skipped by invite)',
      '',
    ]);
    const csv = await cli(['waitlist', 'list', '--csv'], { DATABASE_URL: url });
    expect(csv.code).toBe(0);
    // A cell a spreadsheet would run as a formula is defused with an apostrophe.
    expect(csv.stdout).toBe(
      'email,language,joined,invited,member\r\nanna@example.test,de,2026-05-01T10:00:00.000Z,,\r\n\'=cmd|x@example.test,en,2026-05-02T10:00:00.000Z,,\r\n' +
        'mia@example.test,en,2026-05-03T10:00:00.000Z,,yes\n',
    );
    expect(csv.stderr).toBe('3 on the waiting list, 2 not invited yet, 1 already a member (skipped by invite)\n');
    expect((await cli(['waitlist', 'list'], { DATABASE_URL: `file:${path.join(dir, 'waitlist-empty.sqlite')}` })).stdout).toBe(
      '0 on the waiting list, 0 not invited yet\n',
    );
  });

  it('invites with `waitlist invite --count`: the German entry gets a German email whose code works, nobody twice', async () => {
    const { url, database } = await freshDatabase('waitlist-invite');
    try {
      await insertWaitlistEntry(database.db, { email: 'jonas@example.test', language: 'de', joinedAt: '2026-05-01T10:00:00.000Z' });
      await insertWaitlistEntry(database.db, { email: 'emma@example.test', language: 'en', joinedAt: '2026-05-02T10:00:00.000Z' });
      await insertWaitlistEntry(database.db, { email: 'later@example.test', language: 'sv', joinedAt: '2026-05-03T10:00:00.000Z' });

      // Two operators at once, each asking for 2: the three entries are invited once each.
      const runs = await Promise.all([
        cli(['waitlist', 'invite', '--count', '2'], { DATABASE_URL: url }),
        cli(['waitlist', 'invite', '--count', '2'], { DATABASE_URL: url }),
      ]);
      const counts = runs.map((run) => {
        expect(run).toMatchObject({ code: 0, stderr: '' });
        return Number(/^invited (\d) of 2 requested/.exec(run.stdout)?.[1]);
      });
      expect(counts.reduce((a, b) => a + b)).toBe(3);
      expect((await cli(['waitlist', 'invite', '--count', '5'], { DATABASE_URL: url })).stdout).toBe(
        'invited 0 of 5 requested (no more uninvited entries)\n',
      );
      expect((await cli(['waitlist', 'list'], { DATABASE_URL: url })).stdout).toContain('3 on the waiting list, 0 not invited yet');

      const outbox = await database.db.selectFrom('email_outbox').select(['recipient', 'template', 'locale']).orderBy('recipient').execute();
      expect(outbox).toEqual([
        { recipient: 'emma@example.test', template: 'invitation', locale: 'en' },
        { recipient: 'jonas@example.test', template: 'invitation', locale: 'de' },
        { recipient: 'later@example.test', template: 'invitation', locale: 'sv' },
      ]);

      const env = testEnv({ PUBLIC_URL: 'https://club.example' });
      const received = await deliverAll(database.db, env, 3);
      const german = received.find((email) => email.to[0] === 'jonas@example.test');
      const code = /https:\/\/club\.example\/de\/\?rc=([A-Z2-9]{8})/.exec(german?.text ?? '')?.[1];
      if (!code) throw new Error(`no /de/ link in ${german?.text}`);
      expect(german?.html).toMatch(/<html[^>]* lang="de"/);
      expect(german?.subject).toBe('Ihre Einladung zu Velvet Rope');

      const api = await createTestApi({ env, db: database.db });
      try {
        const { body } = await graphql<{ registrationCodeDetails: CodeDetails }>(api.yoga, CHECK_CODE, { variables: { registrationCode: code } });
        expect(body.data?.registrationCodeDetails).toMatchObject({ errors: [], invitorName: 'Velvet Rope' });
      } finally {
        await api.close();
      }
    } finally {
      await database.close();
    }
  });

  it('lists applications and selects one with `interest select`, once', async () => {
    const { url, database } = await freshDatabase('interest');
    try {
      await insertApplication(database.db, { email: 'applicant@example.test', language: 'it', createdAt: '2026-06-01T08:00:00.000Z' });
      const list = await cli(['interest', 'list'], { DATABASE_URL: url });
      expect(list.stdout).toMatch(/^EMAIL\s+LANGUAGE\s+COUNTRY\s+APPLIED\s+SELECTED\napplicant@example\.test\s+it\s+-\s+2026-06-01T08:00:00\.000Z\s+-\n/);
      expect(list.stdout).toContain('1 applications, 1 not selected yet');
      expect((await cli(['interest', 'list', '--csv'], { DATABASE_URL: url })).stdout).toBe(
        'email,language,country,applied,selected\r\napplicant@example.test,it,,2026-06-01T08:00:00.000Z,\n',
      );

      const selected = await cli(['interest', 'select', '--email', 'Applicant@Example.test'], { DATABASE_URL: url });
      expect(selected).toMatchObject({ code: 0, stderr: '' });
      expect(selected.stdout).toMatch(/^selected applicant@example\.test: code [A-Z2-9]{8}, valid until \d{4}-\d{2}-\d{2}T/);
      const outbox = await database.db.selectFrom('email_outbox').select(['recipient', 'template', 'locale', 'payload']).execute();
      expect(outbox).toEqual([expect.objectContaining({ recipient: 'applicant@example.test', template: 'invitation', locale: 'it' })]);
      expect(JSON.parse(outbox[0]?.payload ?? '{}')).toMatchObject({ reason: 'interest' });

      const again = await cli(['interest', 'select', '--email', 'applicant@example.test'], { DATABASE_URL: url });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('applicant@example.test was already selected on');
      expect((await cli(['interest', 'list'], { DATABASE_URL: url })).stdout).toContain('1 applications, 0 not selected yet');
    } finally {
      await database.close();
    }
  });

  it('prints a lobby link whose token verifies, for 30 days unless told otherwise', async () => {
    const run = await cli(['token', 'lobby', '--email', ' Anna@Example.test ']);
    expect(run.code).toBe(0);
    const url = new URL(run.stdout.trim());
    expect(url.origin + url.pathname).toBe('https://club.example/lobby');
    const verified = await verifyLobbyToken(url.searchParams.get('token'), TEST_SECRET);
    expect(verified).toMatchObject({ ok: true, claims: { email: 'anna@example.test' } });
    const days = verified.ok ? (verified.expiresAt.getTime() - Date.now()) / 86_400_000 : 0;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);
    expect(run.stderr).toMatch(/^valid until \d{4}-\d{2}-\d{2}T/);

    const short = await cli(['token', 'lobby', '--email', 'anna@example.test', '--days', '2']);
    const token = new URL(short.stdout.trim()).searchParams.get('token');
    const shortVerified = await verifyLobbyToken(token, TEST_SECRET);
    expect(shortVerified.ok && (shortVerified.expiresAt.getTime() - Date.now()) / 86_400_000).toBeGreaterThan(1.99);
    expect(await verifyLobbyToken(token, TEST_SECRET, new Date(Date.now() + 2 * 86_400_000 + 1000))).toEqual({ ok: false, reason: 'expired' });
  });

  it('prunes rows past their retention with `data prune`, keeping emails still to be sent', async () => {
    const { url, database } = await freshDatabase('retention');
    const long = new Date(Date.now() - 400 * 86_400_000);
    try {
      for (const status of ['sent', 'pending'] as const) {
        const id = await enqueueEmail(database.db, { template: 'invitation', recipient: `${status}@example.test`, locale: 'en', payload: { code: 'ABCD2345', expiresAt: long.toISOString(), reason: 'waitlist' } }, long);
        await database.db.updateTable('email_outbox').set({ status, sent_at: status === 'sent' ? long.toISOString() : null }).where('id', '=', id).execute();
      }
    } finally {
      await database.close();
    }
    const run = await cli(['data', 'prune'], { DATABASE_URL: url });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe('deleted 1 sent and 0 failed emails, 0 funnel events, 0 consent records, 0 admin sessions, 0 expired registrations, 0 expired lobby links, 0 declines past their cool-down, 0 expired data links\n');
    expect(JSON.parse((await cli(['mail', 'list', '--json'], { DATABASE_URL: url })).stdout)).toEqual([expect.objectContaining({ status: 'pending' })]);
  });

  it('reads relative paths from where npm was started, as `npm start` does (the repository root)', async () => {
    const checkout = path.join(dir, 'checkout');
    mkdirSync(checkout);
    const defaults = await cli(['code', 'list'], { INIT_CWD: checkout, DATA_DIR: '', DATABASE_URL: '', APP_SECRET: '' });
    expect(defaults).toMatchObject({ code: 0, stdout: 'no registration codes\n' });
    expect(existsSync(path.join(checkout, 'data', 'velvet.sqlite'))).toBe(true);
    expect(existsSync(path.join(checkout, 'data', 'app-secret'))).toBe(true);
    const relative = await cli(['code', 'list'], { INIT_CWD: checkout, DATABASE_URL: 'file:other/cli.sqlite' });
    expect(relative.code).toBe(0);
    expect(existsSync(path.join(checkout, 'other', 'cli.sqlite'))).toBe(true);
  });

  it('shows the flagged codes with their signals, rotates one and releases another (`code flagged`, `code rotate`, `code release`)', async () => {
    const { url, database } = await freshDatabase('flagged');
    try {
      const created = JSON.parse((await cli(['code', 'create', '--inviter', 'Greta', '--balance', '4', '--code', 'LEAKY-1', '--json'], { DATABASE_URL: url })).stdout) as { id: string };
      await cli(['code', 'create', '--inviter', 'Hugo', '--balance', '2', '--code', 'CALM-1'], { DATABASE_URL: url });
      expect((await cli(['code', 'flagged'], { DATABASE_URL: url })).stdout).toBe('no flagged codes\n');
      const at = new Date().toISOString();
      for (const kind of ['blocked_referrer', 'blocked_referrer', 'near_miss'] as const) {
        await recordCodeSignal(database.db, created.id, kind, { network: '198.51.100.0/24', country: 'DE' }, new Date(at));
      }
      await database.db.updateTable('registration_codes').set({ quarantined_at: at }).where('code', 'in', ['LEAKY-1', 'CALM-1']).execute();

      const flagged = await cli(['code', 'flagged'], { DATABASE_URL: url });
      const line = flagged.stdout.split('\n').find((l) => l.startsWith('LEAKY-1'));
      // Held 0, score 1 (one network from a blocked referrer, ADR 054), no registration, one network, one country, 2 referrers, 1 near miss.
      expect(line).toMatch(/^LEAKY-1\s+Greta\s+\S+\s+0\s+1\s+0\s+1\s+1\s+2\s+1$/);
      expect((await cli(['code', 'list'], { DATABASE_URL: url })).stdout).toMatch(/LEAKY-1\s+Greta\s+4\s+0\s+-\s+-\s+quarantined/);

      const rotated = await cli(['code', 'rotate', '--code', 'leaky-1', '--json'], { DATABASE_URL: url });
      expect(rotated.code).toBe(0);
      expect(JSON.parse(rotated.stdout)).toMatchObject({ oldCode: 'LEAKY-1', newCode: expect.stringMatching(/^[A-Z2-9]{8}$/), balance: 4 });
      expect(await database.db.selectFrom('email_outbox').select(['template', 'recipient']).execute()).toEqual([
        { template: 'private-link', recipient: expect.stringContaining('@') },
      ]);

      expect(await cli(['code', 'release', '--code', 'CALM-1'], { DATABASE_URL: url })).toMatchObject({
        code: 0,
        stdout: 'released CALM-1: 0 held registration(s) registered, 0 dropped\n',
      });
      const again = await cli(['code', 'release', '--code', 'CALM-1'], { DATABASE_URL: url });
      expect(again).toMatchObject({ code: 2, stderr: expect.stringContaining('CALM-1 is not quarantined') });
    } finally {
      await database.close();
    }
  });

  it('shows help with exit code 0', async () => {
    const run = await cli(['code', 'create', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--requires-timestamp');
  });

  it('reports a bad environment with exit code 2', async () => {
    const run = await cli(['code', 'list'], { DATABASE_URL: 'mysql://nope' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('DATABASE_URL');
  });
});
