/** A JSON response for the plugins that answer before GraphQL does. */
export function json(fetchAPI: { Response: typeof Response }, status: number, body: unknown, headers: HeadersInit = {}) {
  return new fetchAPI.Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}
