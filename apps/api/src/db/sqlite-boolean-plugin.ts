import { OperationNodeTransformer } from 'kysely';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  PrimitiveValueListNode,
  QueryResult,
  RootOperationNode,
  UnknownRow,
  ValueNode,
} from 'kysely';
import { BOOLEAN_COLUMNS } from './schema.ts';

const toSqlite = (value: unknown): unknown => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

class BooleanParameterTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return typeof node.value === 'boolean' ? { ...node, value: toSqlite(node.value) } : node;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((v) => typeof v === 'boolean') ? { ...node, values: node.values.map(toSqlite) } : node;
  }
}

/**
 * SQLite has no boolean type and better-sqlite3 refuses to bind JS booleans: this plugin
 * writes booleans as 1/0 and reads the columns named in BOOLEAN_COLUMNS back as booleans,
 * so the `boolean` in the table types is true on both engines.
 */
export class SqliteBooleanPlugin implements KyselyPlugin {
  readonly #transformer = new BooleanParameterTransformer();
  readonly #columns: ReadonlySet<string> = new Set(BOOLEAN_COLUMNS);

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
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
