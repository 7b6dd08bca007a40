import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { BOOLEAN_COLUMNS } from './schema.ts';

/**
 * SQLite has no boolean type: the handle binds booleans as 1/0 (db/connect.ts, at the
 * parameters), and this plugin reads the columns named in BOOLEAN_COLUMNS back as booleans, so
 * the `boolean` in the table types is true on both engines.
 */
export class SqliteBooleanPlugin implements KyselyPlugin {
  readonly #columns: ReadonlySet<string> = new Set(BOOLEAN_COLUMNS);

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { result } = args;
    if (result.rows.length === 0) return result;
    return {
      ...result,
      rows: result.rows.map((row) => {
        let copy: UnknownRow | undefined;
        for (const key of Object.keys(row)) {
          const value = row[key];
          if (this.#columns.has(key) && (value === 0 || value === 1)) {
            copy ??= { ...row };
            copy[key] = value === 1;
          }
        }
        return copy ?? row;
      }),
    };
  }
}
