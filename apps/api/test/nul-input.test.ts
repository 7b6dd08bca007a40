/**
 * U+0000 in a code, an admin email or a funnel event is invalid input on PostgreSQL as on
 * SQLite (docs/decisions/027): BAD_USER_INPUT before any resolver runs, no "Unexpected
 * error", no error log. The services refuse it too (field rules), for callers that are
 * not GraphQL.
 */
import { describe, expect, it } from 'vitest';
import { NUL_INPUT_MESSAGE } from '../src/http/input-guards.ts';
import { loginAdmin } from '../src/auth/admin-sessions.ts';
import { checkRegistrationCode } from '../src/services/check-registration-code.ts';
import { recordFunnelEvents } from '../src/services/record-funnel-events.ts';
import { logCollector } from './support/api.ts';
import { ENGINES, engineApi } from './support/engines.ts';
import { TEST_SECRET, testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { graphql } from './support/graphql.ts';

const SESSION = '0b7c2c1e-8f4a-4d3b-9c2e-1f0a2b3c4d5e';

describe.each(ENGINES)('NUL in input on %s', (engine) => {
  const logs = logCollector();
  const { database, api } = engineApi(engine, { env: testEnv({ LOG_LEVEL: 'info' }), api: () => ({ logDestination: logs }), clearAfterEach: false });

  const refused = { errors: [{ message: NUL_INPUT_MESSAGE, extensions: { code: 'BAD_USER_INPUT' } }] };
  const errorLogs = () => logs.lines.filter((line) => typeof line.level === 'number' && line.level >= 50);

  it('answers BAD_USER_INPUT for a code check, in a variable or a literal', async () => {
    const { code } = await insertCode(database.db);
    const query = 'query Check($code: String!) { registrationCodeDetails(registrationCode: $code) { errors } }';
    const variable = await graphql(api.yoga, query, { variables: { code: `${code}\u0000` } });
    expect(variable.body).toMatchObject(refused);
    expect(variable.body).not.toHaveProperty('data.registrationCodeDetails');
    const literal = await graphql(api.yoga, `{ registrationCodeDetails(registrationCode: "${code}\\u0000") { errors } }`);
    expect(literal.body).toMatchObject(refused);
    expect(errorLogs()).toEqual([]);
  });

  it('answers BAD_USER_INPUT for an admin sign-in', async () => {
    const login = await graphql(api.yoga, 'mutation Login($email: String!, $password: String!) { adminLogin(email: $email, password: $password) { __typename } }', {
      variables: { email: 'admin\u0000@velvetrope.example', password: 'correct horse battery staple' },
    });
    expect(login.body).toMatchObject(refused);
    expect(errorLogs()).toEqual([]);
  });

  it('answers BAD_USER_INPUT for funnel events', async () => {
    const { code } = await insertCode(database.db);
    const record = await graphql(api.yoga, 'mutation Record($events: [FunnelEventInput!]!) { recordFunnelEvents(events: $events) }', {
      variables: { events: [{ name: 'landing', sessionId: SESSION, registrationCode: `${code}\u0000`, variant: 'default\u0000' }] },
    });
    expect(record.body).toMatchObject(refused);
    expect(await database.db.selectFrom('funnel_events').select('id').execute()).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it('keeps the services from sending U+0000 to the database', async () => {
    const { code } = await insertCode(database.db);
    const check = await checkRegistrationCode({ db: database.db, secret: TEST_SECRET, referrerBlocklist: [] }, { registrationCode: `${code}\u0000` });
    expect(check.errors).toEqual(['REGISTRATION_CODE_INVALID']);
    expect(await loginAdmin({ db: database.db, secret: TEST_SECRET }, { email: 'admin\u0000@velvetrope.example', password: 'x'.repeat(12) })).toEqual({ kind: 'refused', adminUserId: null, reason: 'credentials' });
    expect(
      await recordFunnelEvents({ db: database.db }, [{ name: 'landing', sessionId: SESSION, registrationCode: `${code}\u0000` }], null),
    ).toEqual({ ok: true, stored: 1 });
    const stored = await database.db.selectFrom('funnel_events').select(['registration_code_id']).execute();
    expect(stored).toEqual([{ registration_code_id: null }]);
  });
});
