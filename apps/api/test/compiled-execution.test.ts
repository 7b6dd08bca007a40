/**
 * Compiled execution (http/compiled-execution.ts, ADR 035): a document runs on graphql-js for its
 * first runs and compiled from its third. A client must not be able to tell: the same answers,
 * byte for byte — data, errors as data, GraphQL errors with their extensions, refused variables,
 * masked unexpected errors.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, engineApi } from './support/engines.ts';
import { testEnv } from './support/env.ts';
import { insertCode } from './support/factories.ts';
import { CHECK_CODE } from './support/graphql.ts';

/** More runs than it takes to compile the document. */
const RUNS = 5;

/**
 * The same status and the same JSON every run (with errors, the compiled result lists `data`
 * before `errors`: the same JSON object, in another order of its keys).
 */
function expectSameAnswers(texts: string[]) {
  const parsed = texts.map((text) => ({ status: text.slice(0, 3), body: JSON.parse(text.slice(4)) as unknown }));
  for (const answer of parsed) expect(answer).toEqual(parsed[0]);
}

describe.each(ENGINES)('compiled execution on %s', (engine) => {
  const { database, api } = engineApi(engine, { env: testEnv({ RATE_LIMIT_CODE_CHECKS_PER_MINUTE: '1000' }) });

  /** The raw answers (status and body text) of RUNS identical requests. */
  async function answers(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) {
    const texts: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const response = await api.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      texts.push(`${response.status} ${await response.text()}`);
    }
    return texts;
  }

  it('answers a code check the same before and after compiling it: usable, refused, unknown', async () => {
    const { code } = await insertCode(database.db, { inviterFirstName: 'Jules', customization: 'viral' });
    const { code: expired } = await insertCode(database.db, { expiresAt: '2025-01-01T00:00:00.000Z' });
    for (const registrationCode of [code, expired, 'NO-SUCH-CODE']) {
      const texts = await answers(CHECK_CODE, { registrationCode, slug: 'other', referrer: null });
      expect(new Set(texts).size).toBe(1);
      expect(texts[0]).toMatch(/^200 \{"data":\{"registrationCodeDetails":\{"errors":\[/);
    }
    const [usable] = await answers(CHECK_CODE, { registrationCode: code });
    expect(JSON.parse(usable?.slice(4) ?? '{}').data.registrationCodeDetails).toMatchObject({ errors: [], invitorName: 'Jules', customization: 'viral' });
  });

  it('answers a GraphQL error with its extensions the same way', async () => {
    const texts = await answers('query report { funnelReport { sessions } }', {});
    expectSameAnswers(texts);
    expect(JSON.parse(texts[0]?.slice(4) ?? '{}')).toMatchObject({ data: null, errors: [{ message: 'Admin sign-in required.', extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('refuses variables of the wrong type the same way', async () => {
    const texts = await answers(CHECK_CODE, { registrationCode: 42 });
    expectSameAnswers(texts);
    expect(texts[0]).toMatch(/^(200|400) .*registrationCode/);
  });

  it('masks an unexpected error the same way', async () => {
    const { code } = await insertCode(database.db);
    // An unexpected failure inside the resolver: a code check on a database whose table is gone.
    const other = database.connectAgain();
    // A document of its own, so that its first runs are graphql-js's and the later ones compiled.
    const document = `${CHECK_CODE}\n# masked`;
    const texts: string[] = [];
    try {
      await other.db.schema.alterTable('registration_codes').renameTo('registration_codes_away').execute();
      texts.push(...(await answers(document, { registrationCode: code })));
    } finally {
      await other.db.schema.alterTable('registration_codes_away').renameTo('registration_codes').execute();
      await other.close();
    }
    expectSameAnswers(texts);
    expect(JSON.parse(texts[0]?.slice(4) ?? '{}')).toMatchObject({ errors: [{ message: 'Unexpected error.' }] });
  });
});
