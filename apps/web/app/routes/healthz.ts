/** Liveness of the web server itself (the API has its own /health). */
export function loader() {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}
