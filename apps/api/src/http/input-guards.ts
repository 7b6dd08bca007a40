/**
 * Input refused before any resolver runs: a body over the limit (413), parameters that are
 * not JSON (400), U+0000 in an operation's text or variables (BAD_USER_INPUT).
 */
import { GraphQLError, visit } from 'graphql';
import type { ExecutionArgs } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import { containsNul } from '@velvet/validation/text';
import type { ApiContext } from '../context.ts';
import { json } from './json-response.ts';

async function readAtMost(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * Bodies over `maxBytes` get 413, by Content-Length up front or while reading a chunked body.
 * A body with a Content-Length within the limit is not counted again: the HTTP parser delivers
 * exactly that many bytes (counting it meant copying every request body, ADR 035).
 */
export function useBodyLimit(maxBytes: number): Plugin<ApiContext> {
  const tooLarge = (fetchAPI: { Response: typeof Response }) =>
    json(fetchAPI, 413, { errors: [{ message: `Request body is larger than ${maxBytes} bytes.` }] });
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > maxBytes) endResponse(tooLarge(fetchAPI));
    },
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      if (!request.body || !requestParser || /^\d+$/.test(request.headers.get('content-length') ?? '')) return;
      setRequestParser(async (original) => {
        const body = await readAtMost(original, maxBytes);
        if (body === null) return tooLarge(fetchAPI);
        return requestParser(
          new fetchAPI.Request(original.url, { method: original.method, headers: original.headers, body }),
        );
      });
    },
  };
}

export const NUL_INPUT_MESSAGE = 'Text must not contain NUL (U+0000) characters.';

/**
 * Whether a document has a string literal containing U+0000, once per document: Yoga's parser
 * cache hands every request with the same text the same document object (ADR 035).
 */
const nulLiterals = new WeakMap<ExecutionArgs['document'], boolean>();

/** True when a variable or a string literal of the operation contains U+0000. */
function hasNulInput(args: ExecutionArgs): boolean {
  if (containsNul(args.variableValues)) return true;
  let found = nulLiterals.get(args.document);
  if (found === undefined) {
    found = false;
    visit(args.document, {
      StringValue(node) {
        if (node.value.includes('\u0000')) found = true;
      },
    });
    nulLiterals.set(args.document, found);
  }
  return found;
}

/**
 * U+0000 anywhere in an operation's input is BAD_USER_INPUT before any resolver runs, on
 * both engines (PostgreSQL cannot store it; docs/decisions/027). Over HTTP and WebSocket.
 */
export function useNulGuard(): Plugin<ApiContext> {
  const refused = () => ({ errors: [new GraphQLError(NUL_INPUT_MESSAGE, { extensions: { code: 'BAD_USER_INPUT' } })] });
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (hasNulInput(args)) setResultAndStopExecution(refused());
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      if (hasNulInput(args)) setResultAndStopExecution(refused());
    },
  };
}

/**
 * `variables` or `extensions` that are not JSON (a GET's query string, a form-encoded body) are
 * the client's mistake: 400 with a message. Yoga's parsers let JSON.parse's SyntaxError
 * through, which became a masked 500.
 */
export function useMalformedParams(): Plugin<ApiContext> {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          if (error instanceof SyntaxError) {
            throw createGraphQLError('Variables and extensions must be JSON.', { extensions: { http: { status: 400 } } });
          }
          throw error;
        }
      });
    },
  };
}
