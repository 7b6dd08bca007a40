/**
 * A stand-in error-reporting service for the e2e tests (ADR 013): it takes reports the way a
 * Sentry store endpoint does (POST /api/<project>/store/?sentry_key=…, JSON) and lists what
 * it received at GET /reports, so a test can check what really left the product.
 */
import { createServer } from 'node:http';

const port = Number(process.env.ERROR_COLLECTOR_PORT ?? 3314);
const reports: { receivedAt: string; path: string; body: string }[] = [];

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/healthz') return void res.writeHead(200).end('ok');
  if (req.method === 'GET' && url.pathname === '/reports') {
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reports));
  }
  if (req.method === 'POST' && /^\/api\/\d+\/store\/$/.test(url.pathname)) {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      reports.push({ receivedAt: new Date().toISOString(), path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ok' }));
    });
    return;
  }
  res.writeHead(404).end();
}).listen(port, '127.0.0.1');
