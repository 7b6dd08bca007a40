/**
 * Queries and mutations run as compiled JavaScript (graphql-jit through @envelop/graphql-jit),
 * their results serialized by a stringifier compiled for their shape (ADR 035): on the API's
 * busiest query the profile showed graphql-js's execution and JSON.stringify at a sixth of a
 * request, the compiled ones at a third of that.
 *
 * A document is compiled on its third execution, not its first: the web app's operations run
 * thousands of times, while a document seen once or twice (a fuzzer's, a probe's) would cost a
 * compilation — milliseconds — for nothing. Yoga's parser cache hands every request with the
 * same text the same document object, so counting per object counts per text. Subscriptions
 * keep graphql-js.
 *
 * The compiled errors carry their `locations` only, where graphql-js's carry the document's
 * nodes, from which Yoga computes the locations again when it masks or serializes an error. So
 * every compiled error is given its source and positions, and clients see the same errors as
 * from graphql-js (tests/compiled-execution.test.ts).
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import { GraphQLError, getOperationAST } from 'graphql';
import type { DocumentNode, ExecutionArgs, Source } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ApiContext } from '../context.ts';

const COMPILE_ON_RUN = 3;

export function useCompiledExecution(): Plugin<ApiContext>[] {
  const runs = new WeakMap<DocumentNode, number>();
  const compiled = new WeakSet<ExecutionArgs>();
  const enableIf = (args: ExecutionArgs) => {
    if (getOperationAST(args.document, args.operationName)?.operation === 'subscription') return false;
    const seen = (runs.get(args.document) ?? 0) + 1;
    if (seen <= COMPILE_ON_RUN) runs.set(args.document, seen);
    if (seen < COMPILE_ON_RUN) return false;
    compiled.add(args);
    return true;
  };
  const jit = useGraphQlJit({ customJSONSerializer: true }, { enableIf }) as Plugin<ApiContext>;
  const errorPositions: Plugin<ApiContext> = {
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          const source = args.document.loc?.source;
          if (!compiled.has(args) || !source || !('errors' in result) || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map((error) => withPositions(error, source)) });
        },
      };
    },
  };
  // The repair runs after the compiled execution and before Yoga masks errors (its plugins come after ours).
  return [jit, errorPositions];
}

/** `error` as graphql-js would have made it: positions in `source` (Yoga derives `locations` from them). */
function withPositions(error: GraphQLError, source: Source): GraphQLError {
  if (error.nodes || error.positions || !error.locations?.length) return error;
  const positions = error.locations.map(({ line, column }) => positionOf(source.body, line, column));
  return new GraphQLError(error.message, {
    source,
    positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/** The offset of 1-based `line` and `column` in `body` (line breaks as graphql-js counts them). */
function positionOf(body: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = body.slice(offset).search(/\r\n|[\n\r]/);
    if (next < 0) break;
    offset += next + (body.startsWith('\r\n', offset + next) ? 2 : 1);
  }
  return offset + column - 1;
}
