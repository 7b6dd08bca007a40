import { COUNTRIES } from '@velvet/i18n/locales';
import { describe, expect, it } from 'vitest';
import { REGISTRATION_LINK_VALIDITY_DAYS, signValidityTimestamp } from '../src/domain/registration-link.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import type { CodeFields } from './support/factories.ts';
import { CHECK_CODE, graphql } from './support/graphql.ts';
import type { CodeDetails } from './support/graphql.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);

describe.each(ENGINES)('registrationCodeDetails on %s', (engine) => {
  const { database, api } = engineApi(engine, { env: testEnv({ REFERRER_BLOCKLIST: 'mydealz,coupon,x.com,google.' }) });

  async function check(variables: Record<string, unknown>) {
    const { status, body } = await graphql<{ registrationCodeDetails: CodeDetails }>(api.yoga, CHECK_CODE, { variables });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const details = body.data?.registrationCodeDetails;
    if (!details) throw new Error('no registrationCodeDetails in the response');
    expect(details.errorDetails.map((d) => d.error)).toEqual(details.errors);
    return details;
  }

  async function checkCode(fields: CodeFields, variables: Record<string, unknown> = {}) {
    const { code } = await insertCode(database.db, fields);
    return check({ registrationCode: code, ...variables });
  }

  it('accepts a valid code: no errors, the inviter, every country with its consent documents', async () => {
    const details = await checkCode({ inviterFirstName: 'Sophie', customization: 'viral' });
    expect(details.errors).toEqual([]);
    expect(details.invitorName).toBe('Sophie');
    expect(details.customization).toBe('viral');
    expect(details.countryOptions.map((o) => o.isoCode)).toEqual([...COUNTRIES]);
    expect(details.countryOptions).toContainEqual({
      isoCode: 'DE',
      termsPkString: 'terms-DE-2026-01',
      dataPolicyPkString: 'data-policy-DE-2026-01',
    });
  });

  it('offers the newest published version of each legal document, never a future one', async () => {
    await database.db
      .insertInto('legal_documents')
      .values([
        { country: 'AT', kind: 'terms', pk_string: 'terms-AT-2026-06', published_at: '2026-06-01T00:00:00.000Z' },
        { country: 'AT', kind: 'data_policy', pk_string: 'data-policy-AT-2999-01', published_at: '2999-01-01T00:00:00.000Z' },
      ])
      .execute();
    try {
      const details = await checkCode({});
      expect(details.countryOptions.find((o) => o.isoCode === 'AT')).toEqual({
        isoCode: 'AT',
        termsPkString: 'terms-AT-2026-06',
        dataPolicyPkString: 'data-policy-AT-2026-01',
      });
    } finally {
      await database.db.deleteFrom('legal_documents').where('pk_string', 'in', ['terms-AT-2026-06', 'data-policy-AT-2999-01']).execute();
    }
  });

  it('sees a change of the legal documents at the next request, whoever makes it (the API keeps them in memory)', async () => {
    const { code } = await insertCode(database.db);
    const optionFor = async (isoCode: string) => (await check({ registrationCode: code })).countryOptions.find((o) => o.isoCode === isoCode);
    expect(await optionFor('NL')).toEqual({ isoCode: 'NL', termsPkString: 'terms-NL-2026-01', dataPolicyPkString: 'data-policy-NL-2026-01' });
    // An operator's SQL on another connection (as another process or instance would): new, renamed, withdrawn.
    const other = database.connectAgain();
    try {
      await other.db.insertInto('legal_documents').values({ country: 'NL', kind: 'terms', pk_string: 'terms-NL-2026-07', published_at: '2026-07-01T00:00:00.000Z' }).execute();
      expect((await optionFor('NL'))?.termsPkString).toBe('terms-NL-2026-07');
      await other.db.updateTable('legal_documents').set({ pk_string: 'data-policy-NL-2026-01b' }).where('pk_string', '=', 'data-policy-NL-2026-01').execute();
      expect((await optionFor('NL'))?.dataPolicyPkString).toBe('data-policy-NL-2026-01b');
      await other.db.deleteFrom('legal_documents').where('pk_string', '=', 'data-policy-NL-2026-01b').execute();
      // Without a data policy the country is not offered.
      expect(await optionFor('NL')).toBeUndefined();
    } finally {
      await other.db.deleteFrom('legal_documents').where('pk_string', '=', 'terms-NL-2026-07').execute();
      await other.db
        .insertInto('legal_documents')
        .values({ country: 'NL', kind: 'data_policy', pk_string: 'data-policy-NL-2026-01', published_at: '2026-01-01T00:00:00.000Z' })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await other.close();
    }
    expect(await optionFor('NL')).toEqual({ isoCode: 'NL', termsPkString: 'terms-NL-2026-01', dataPolicyPkString: 'data-policy-NL-2026-01' });
  });

  it('offers a version from the instant it is published, without any change to the table', async () => {
    const { code } = await insertCode(database.db);
    await database.db.insertInto('legal_documents').values({ country: 'PL', kind: 'terms', pk_string: 'terms-PL-2026-12', published_at: '2026-12-01T00:00:00.000Z' }).execute();
    try {
      const termsAt = async (instant: string) => {
        api.clock.fix(instant);
        return (await check({ registrationCode: code })).countryOptions.find((o) => o.isoCode === 'PL')?.termsPkString;
      };
      expect(await termsAt('2026-11-30T23:59:59.999Z')).toBe('terms-PL-2026-01');
      expect(await termsAt('2026-12-01T00:00:00.000Z')).toBe('terms-PL-2026-12');
      // And back: the clock of each request decides, not the order of the requests.
      expect(await termsAt('2026-11-30T12:00:00.000Z')).toBe('terms-PL-2026-01');
    } finally {
      await database.db.deleteFrom('legal_documents').where('pk_string', '=', 'terms-PL-2026-12').execute();
    }
  });

  it('looks codes up trimmed and case-insensitively', async () => {
    const { code } = await insertCode(database.db, { code: 'MIXED-Case1'.toUpperCase(), inviterFirstName: 'Mia' });
    const details = await check({ registrationCode: `  ${code.toLowerCase()}\t ` });
    expect(details.errors).toEqual([]);
    expect(details.invitorName).toBe('Mia');
  });

  it.each([
    ['unknown', 'NO-SUCH-CODE'],
    ['empty', ''],
    ['blank', '   '],
    ['longer than 64 characters', 'A'.repeat(65)],
  ])('reports an %s code as REGISTRATION_CODE_INVALID only', async (_label, registrationCode) => {
    const details = await check({ registrationCode, referrer: 'https://www.mydealz.de/', slug: 'vip' });
    expect(details).toEqual({
      errors: ['REGISTRATION_CODE_INVALID'],
      errorDetails: [{ error: 'REGISTRATION_CODE_INVALID' }],
      invitorName: null,
      countryOptions: [],
      customization: null,
    });
  });

  it('reports a disabled code as REGISTRATION_CODE_INVALID and names nobody', async () => {
    const details = await checkCode({ disabled: true, inviterFirstName: 'Dora' });
    expect(details.errors).toEqual(['REGISTRATION_CODE_INVALID']);
    expect(details.invitorName).toBeNull();
  });

  it('reports an expired code', async () => {
    const details = await checkCode({ expiresAt: '2025-12-31T23:59:59.000Z', inviterFirstName: 'Marc' });
    expect(details.errors).toEqual(['REGISTRATION_CODE_EXPIRED']);
    expect(details.invitorName).toBe('Marc');
    expect(details.countryOptions).toEqual([]);
  });

  it('accepts a code until the instant it expires, and not from then on', async () => {
    const { code } = await insertCode(database.db, { expiresAt: '2026-12-31T23:00:00.000Z' });
    api.clock.fix('2026-12-31T22:59:59.999Z');
    expect((await check({ registrationCode: code })).errors).toEqual([]);
    api.clock.fix('2026-12-31T23:00:00.000Z');
    expect((await check({ registrationCode: code })).errors).toEqual(['REGISTRATION_CODE_EXPIRED']);
  });

  it('reports a code with no invitations left, still naming the inviter', async () => {
    const details = await checkCode({ balance: 0, inviterFirstName: 'Julia' });
    expect(details.errors).toEqual(['REGISTRATION_CODE_NO_BALANCE_LEFT']);
    expect(details.invitorName).toBe('Julia');
    expect(details.countryOptions).toEqual([]);
  });

  it('reports a code whose balance is taken by pending registrations', async () => {
    const full = await checkCode({ balance: 2, pendingMembers: 2 });
    expect(full.errors).toEqual(['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS']);
    const roomLeft = await checkCode({ balance: 3, pendingMembers: 2 });
    expect(roomLeft.errors).toEqual([]);
  });

  it.each(['pending', 'blocked'] as const)('reports an inviter who is %s as INVITER_INVALID', async (inviterStatus) => {
    const details = await checkCode({ inviterStatus, inviterFirstName: 'Eva' });
    expect(details.errors).toEqual(['INVITER_INVALID']);
    expect(details.invitorName).toBeNull();
    expect(details.countryOptions).toEqual([]);
  });

  describe('validityTimestamp', () => {
    it('accepts a genuine link until the second it expires', async () => {
      const { code } = await insertCode(database.db, { requiresValidityTimestamp: true });
      const madeAt = api.clock.fix('2026-11-24T10:00:00.000Z');
      const validityTimestamp = signValidityTimestamp(code, new Date(madeAt.getTime() + REGISTRATION_LINK_VALIDITY_DAYS * DAY_MS), TEST_SECRET);
      const details = await check({ registrationCode: code.toLowerCase(), validityTimestamp });
      expect(details.errors).toEqual([]);
      expect(details.countryOptions).toHaveLength(COUNTRIES.length);
      api.clock.fix('2026-12-08T09:59:59.999Z');
      expect((await check({ registrationCode: code, validityTimestamp })).errors).toEqual([]);
      api.clock.fix('2026-12-08T10:00:00.000Z');
      expect((await check({ registrationCode: code, validityTimestamp })).errors).toEqual(['REGISTRATION_CODE_EXPIRED']);
    });

    it('reports REGISTRATION_TIMESTAMP_MISSING for a link-only code without one', async () => {
      const details = await checkCode({ requiresValidityTimestamp: true, inviterFirstName: 'Sophie' });
      expect(details.errors).toEqual(['REGISTRATION_TIMESTAMP_MISSING']);
      expect(details.countryOptions).toEqual([]);
    });

    it('reports an expired link as REGISTRATION_CODE_EXPIRED', async () => {
      const { code } = await insertCode(database.db, { requiresValidityTimestamp: true });
      const validityTimestamp = signValidityTimestamp(code, inDays(-1), TEST_SECRET);
      expect((await check({ registrationCode: code, validityTimestamp })).errors).toEqual(['REGISTRATION_CODE_EXPIRED']);
    });

    it.each([
      ['a changed expiry', (v: string) => v.replace(/^\d+/, (s) => String(Number(s) + 60))],
      ['a changed signature', (v: string) => `${v.slice(0, -2)}${v.endsWith('AA') ? 'BB' : 'AA'}`],
      ['garbage', () => 'not-a-timestamp'],
      ['a bare epoch', (v: string) => v.split('.')[0] ?? ''],
    ])('reports a link with %s as REGISTRATION_CODE_INVALID', async (_label, tamper) => {
      const { code } = await insertCode(database.db, { requiresValidityTimestamp: true });
      const genuine = signValidityTimestamp(code, inDays(7), TEST_SECRET);
      const details = await check({ registrationCode: code, validityTimestamp: tamper(genuine) });
      expect(details.errors).toEqual(['REGISTRATION_CODE_INVALID']);
      expect(details.countryOptions).toEqual([]);
    });

    it('rejects a link signed for another code or with another secret', async () => {
      const { code } = await insertCode(database.db, {});
      const other = signValidityTimestamp('OTHER-CODE', inDays(7), TEST_SECRET);
      const foreign = signValidityTimestamp(code, inDays(7), 'another-secret-that-is-long-enough-000000');
      expect((await check({ registrationCode: code, validityTimestamp: other })).errors).toEqual(['REGISTRATION_CODE_INVALID']);
      expect((await check({ registrationCode: code, validityTimestamp: foreign })).errors).toEqual([
        'REGISTRATION_CODE_INVALID',
      ]);
    });
  });

  describe('slug', () => {
    it('matches the landing slug of the code, case-insensitively', async () => {
      const details = await checkCode({ landingSlug: 'vip', customization: 'social-15-percent-mov' }, { slug: 'VIP' });
      expect(details.errors).toEqual([]);
      expect(details.customization).toBe('social-15-percent-mov');
    });

    it('reports CUSTOMIZATION_MISSING for another slug or a code without one; the code stays usable', async () => {
      const other = await checkCode({ landingSlug: 'vip' }, { slug: 'summer' });
      expect(other.errors).toEqual(['CUSTOMIZATION_MISSING']);
      expect(other.countryOptions).toHaveLength(COUNTRIES.length);
      const none = await checkCode({}, { slug: 'vip' });
      expect(none.errors).toEqual(['CUSTOMIZATION_MISSING']);
      expect(none.countryOptions).toHaveLength(COUNTRIES.length);
    });

    it('ignores an empty slug', async () => {
      expect((await checkCode({ landingSlug: 'vip' }, { slug: '' })).errors).toEqual([]);
    });
  });

  describe('referrer', () => {
    it.each(['https://www.mydealz.de/deals/123', 'https://coupons.example/x', 'https://x.com/someone', 'https://www.google.de/search?q=x'])(
      'reports REFERER_INVALID for %s',
      async (referrer) => {
        const details = await checkCode({}, { referrer });
        expect(details.errors).toEqual(['REFERER_INVALID']);
        expect(details.countryOptions).toEqual([]);
      },
    );

    it.each(['https://www.dropbox.com/', 'https://shop.example/', 'not a url', ''])('accepts %j', async (referrer) => {
      expect((await checkCode({}, { referrer })).errors).toEqual([]);
    });
  });

  it('reports every problem at once, in a fixed order', async () => {
    const details = await checkCode(
      { balance: 0, inviterStatus: 'blocked', expiresAt: '2025-01-01T00:00:00.000Z', requiresValidityTimestamp: true },
      { slug: 'nope', referrer: 'https://www.mydealz.de/' },
    );
    expect(details.errors).toEqual([
      'REGISTRATION_TIMESTAMP_MISSING',
      'REGISTRATION_CODE_EXPIRED',
      'INVITER_INVALID',
      'REGISTRATION_CODE_NO_BALANCE_LEFT',
      'CUSTOMIZATION_MISSING',
      'REFERER_INVALID',
    ]);
    expect(details.invitorName).toBeNull();
  });

  it('gives a null customization when the code has none', async () => {
    expect((await checkCode({ customization: null })).customization).toBeNull();
  });

  it('requires registrationCode (a GraphQL validation error, not data)', async () => {
    const { body } = await graphql(api.yoga, '{ registrationCodeDetails { errors } }');
    expect(body.errors?.[0]?.message).toMatch(/registrationCode/);
  });
});
