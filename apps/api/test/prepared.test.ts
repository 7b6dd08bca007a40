/**
 * Prepared queries (db/prepared.ts, ADR 035): compiled once, run with new values, on both
 * engines — the same rows as the built query, booleans both ways, and a query whose shape
 * would depend on a value is refused rather than run with the wrong one.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { prepared } from '../src/db/prepared.ts';
import { ENGINES, engineDatabase } from './support/engines.ts';
import { insertCode } from './support/factories.ts';

const codeByName = prepared((db, code: string) =>
  db.selectFrom('registration_codes').select(['id', 'code', 'balance', 'requires_validity_timestamp']).where('code', '=', code),
);
const codesBetween = prepared((db, low: number, high: number, linkOnly: boolean) =>
  db
    .selectFrom('registration_codes')
    .select('code')
    .where('balance', '>=', low)
    .where('balance', '<=', high)
    .where('requires_validity_timestamp', '=', linkOnly)
    .orderBy('code'),
);
const setLinkOnly = prepared((db, linkOnly: boolean, id: string) =>
  db.updateTable('registration_codes').set({ requires_validity_timestamp: linkOnly }).where('id', '=', id),
);

describe.each(ENGINES)('prepared queries on %s', (engine) => {
  const database = engineDatabase(engine);

  it('answer each run with its own values, as the built query does', async () => {
    const first = await insertCode(database.db, { balance: 3 });
    const second = await insertCode(database.db, { balance: 7, requiresValidityTimestamp: true });
    for (const { code } of [first, second, first]) {
      const built = await database.db
        .selectFrom('registration_codes')
        .select(['id', 'code', 'balance', 'requires_validity_timestamp'])
        .where('code', '=', code)
        .execute();
      expect((await codeByName(database.db, code)).rows).toEqual(built);
    }
    expect((await codeByName(database.db, 'NO-SUCH-CODE')).rows).toEqual([]);
    expect((await codesBetween(database.db, 1, 5, false)).rows).toEqual([{ code: first.code }]);
    expect((await codesBetween(database.db, 1, 10, true)).rows).toEqual([{ code: second.code }]);
  });

  it('write booleans and count the rows they change, in a transaction too', async () => {
    const { id, code } = await insertCode(database.db);
    const result = await database.db.transaction().execute((trx) => setLinkOnly(trx, true, id));
    expect(Number(result.numAffectedRows)).toBe(1);
    expect((await codeByName(database.db, code)).rows[0]?.requires_validity_timestamp).toBe(true);
    await setLinkOnly(database.db, false, id);
    expect((await codeByName(database.db, code)).rows[0]?.requires_validity_timestamp).toBe(false);
  });

  it('refuse a query that does not take a value as a parameter', async () => {
    const inlined = prepared((db, code: string) => db.selectFrom('registration_codes').select('id').where('code', '=', sql.lit(code)));
    await expect(inlined(database.db, 'ANY')).rejects.toThrow(/not parameters/);
  });
});
