/**
 * The GraphQL operations the benchmarks send: read from the web app's own documents
 * (apps/web/app/lib/api/operations.ts), so the API is measured with exactly what the site sends.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The text of the web app's operation `name` (the graphql(`…`) after `operation('name',`).
 * @param {string} root repository root
 * @param {string} name e.g. 'checkRegistrationCode'
 * @param {string} [file] the module of apps/web/app/lib that holds it (default api/operations.ts)
 * @returns {string}
 */
export function webOperation(root, name, file = 'api/operations.ts') {
  const source = readFileSync(path.join(root, 'apps/web/app/lib', file), 'utf8');
  const match = new RegExp(`operation\\(\\s*'${name}',\\s*graphql\\(\`([^\`]+)\``).exec(source);
  if (!match?.[1]) throw new Error(`operation ${name} not found in apps/web/app/lib/${file}`);
  return match[1];
}

/**
 * A JSON body as the web app's API client sends it.
 * @param {string} operationName
 * @param {string} query
 * @param {Record<string, unknown>} variables
 */
export const graphqlBody = (operationName, query, variables) => JSON.stringify({ operationName, query, variables });

export const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * One operation, answered as JSON; throws on anything but HTTP 200 with data.
 * @param {string} url the API's /graphql
 * @param {string} body
 * @returns {Promise<{ text: string, json: { data?: Record<string, any>, errors?: unknown[] } }>}
 */
export async function postGraphql(url, body) {
  const response = await fetch(url, { method: 'POST', headers: JSON_HEADERS, body, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const json = JSON.parse(text);
  if (!response.ok || !json.data || json.errors) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return { text, json };
}
