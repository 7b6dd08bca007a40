/**
 * Queries built and compiled once, then run with new values (ADR 035).
 *
 * Kysely builds, transforms (plugins) and compiles a query's tree on every execution; on the
 * API's busiest paths that cost more CPU than running the SQL. A prepared query is written with
 * the same type-checked builder, once per engine, with a marker in place of each value; every
 * run only puts the values where the markers were and executes the compiled SQL (which SQLite's
 * statement cache then finds prepared too, db/connect.ts). The rows come back through the
 * plugins as usual (SQLite's booleans).
 *
 * Only for queries whose shape does not depend on the values: the builder must use each value
 * as a parameter, as it is (no `in` lists, no values computed inside the builder).
 */
import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { engineOf } from './engine.ts';
import type { Database } from './schema.ts';

type Value = string | number | boolean | null;

interface Prepared<R> {
  compiled: CompiledQuery<R>;
  /** Where each value goes: parameter index → value index. */
  slots: [parameter: number, value: number][];
  count: number;
  sqlite: boolean;
}

const marker = (index: number) => `\u0000prepared-value-${index}\u0000`;

/**
 * The SQL of every prepared query, with the name PostgreSQL knows it by: `connect.ts` sends these
 * as named statements, parsed and planned once per connection instead of on every run.
 */
const statementNames = new Map<string, string>();

/** The statement name of a prepared query's SQL on PostgreSQL; undefined for any other SQL. */
export function preparedStatementName(sqlText: string): string | undefined {
  return statementNames.get(sqlText);
}

/**
 * `build` written once, run as `query(db, ...values)`: the result of executing the query built
 * with those values, without building it again. `db` may be a transaction. `build` declares
 * each value as a parameter of its own (no rest parameters: its length counts them). One
 * compiled query per engine: every database of an engine has the same plugins here.
 */
export function prepared<V extends Value[], R>(
  build: (db: Kysely<Database>, ...values: V) => Compilable<R>,
): (db: Kysely<Database>, ...values: V) => Promise<QueryResult<R>> {
  const byEngine = new Map<string, Prepared<R>>();
  const prepare = (db: Kysely<Database>): Prepared<R> => {
    const count = build.length - 1;
    const markers = Array.from({ length: count }, (_, index) => marker(index));
    const compiled = build(db, ...(markers as V)).compile();
    const slots: [number, number][] = [];
    compiled.parameters.forEach((parameter, index) => {
      const value = markers.indexOf(parameter as string);
      if (value >= 0) slots.push([index, value]);
    });
    const missing = markers.filter((_, value) => !slots.some(([, v]) => v === value));
    if (missing.length > 0) throw new Error(`prepared query: ${missing.length} value(s) are not parameters of ${compiled.sql}`);
    const sqlite = engineOf(db as unknown as Kysely<unknown>) === 'sqlite';
    if (!sqlite) statementNames.set(compiled.sql, `velvet_${createHash('sha256').update(compiled.sql).digest('hex').slice(0, 32)}`);
    return { compiled, slots, count, sqlite };
  };
  return async (db, ...values) => {
    const engine = engineOf(db as unknown as Kysely<unknown>);
    let entry = byEngine.get(engine);
    if (!entry) {
      entry = prepare(db);
      byEngine.set(engine, entry);
    }
    if (values.length !== entry.count) throw new Error(`prepared query: ${values.length} values given, ${entry.count} declared (${entry.compiled.sql})`);
    const parameters = [...entry.compiled.parameters];
    for (const [parameter, value] of entry.slots) {
      const given = values[value];
      // As SqliteBooleanPlugin does for built queries: SQLite stores booleans as 1/0.
      parameters[parameter] = entry.sqlite && typeof given === 'boolean' ? Number(given) : given;
    }
    return db.executeQuery<R>({ ...entry.compiled, parameters });
  };
}
