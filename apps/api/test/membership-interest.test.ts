/** Mutation.applyForMembership end to end through Yoga, on SQLite and PostgreSQL. */
import { describe, expect, it } from 'vitest';
import { ENGINES, engineApi } from './support/engines.ts';
import { insertMember } from './support/factories.ts';
import { graphql } from './support/graphql.ts';
import { uniqueEmail } from './support/registration.ts';

const APPLY = /* GraphQL */ `
  mutation apply($email: String!, $language: String, $country: String) {
    applyForMembership(email: $email, language: $language, country: $country) { accepted userErrors { code field messageId } }
  }
`;

describe.each(ENGINES)('membership interest on %s', (engine) => {
  const { database, api } = engineApi(engine);

  /** The raw response body: the tests compare whole answers, not just fields. */
  async function apply(variables: { email: string; language?: string | null; country?: string | null }) {
    const { status, body } = await graphql(api.yoga, APPLY, { variables });
    expect(status).toBe(200);
    return body;
  }

  const applications = () => database.db.selectFrom('membership_applications').selectAll().execute();

  it('records an application → accepted', async () => {
    const email = uniqueEmail('Applicant');
    const appliedAt = api.clock.fix('2026-11-24T17:45:12.345Z');
    expect(await apply({ email: ` ${email.toUpperCase()} `, language: 'IT', country: ' at ' })).toEqual({
      data: { applyForMembership: { accepted: true, userErrors: [] } },
    });
    const rows = await applications();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: email.toLowerCase(), language: 'it', country: 'AT', selected_at: null, registration_code_id: null });
    expect(rows[0]?.created_at).toBe(appliedAt.toISOString());
    expect(rows[0]?.consent_at).toBe(rows[0]?.created_at);
  });

  it('answers a repeated application exactly like the first, keeping one row as it was', async () => {
    const email = uniqueEmail();
    const first = await apply({ email, language: 'de', country: 'DE' });
    const [row] = await applications();
    const second = await apply({ email: email.toUpperCase(), language: 'fr', country: 'FR' });
    expect(second).toEqual(first);
    expect(await applications()).toEqual([row]);
  });

  it("answers an existing member's address like any other, without recording anything about the member", async () => {
    const memberId = await insertMember(database.db, { status: 'active' });
    const { email } = await database.db.selectFrom('members').select('email').where('id', '=', memberId).executeTakeFirstOrThrow();
    const stranger = await apply({ email: uniqueEmail() });
    expect(await apply({ email })).toEqual(stranger);
  });

  it.each([
    ['an unsupported country', 'US'],
    ['garbage', 'Deutschland'],
    ['none', null],
  ])('stores %s as no country', async (_label, country) => {
    await apply({ email: uniqueEmail(), country });
    expect((await applications())[0]).toMatchObject({ country: null, language: 'en' });
  });

  it.each([
    ['no address', '', 'validation.email'],
    ['a malformed address', 'someone@', 'validation.email'],
    ['an address over 254 characters', `${'a'.repeat(60)}@${'b'.repeat(190)}.com`, 'validation.emailTooLong'],
  ])('refuses %s with a field error and writes nothing', async (_label, email, code) => {
    expect(await apply({ email })).toEqual({ data: { applyForMembership: { accepted: false, userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: code }] } } });
    expect(await applications()).toEqual([]);
  });
});
