/**
 * A stand-in for the API on loopback, for web-server tests that decide what the API answers:
 * every POST /graphql is handed to `answer` with its operation, variables and headers; what it
 * returns is sent as JSON with status 200 (a `status` of its own when it names one). Any other
 * path is a 404.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInCall {
  operationName: string;
  variables: Record<string, unknown> | undefined;
  headers: IncomingHttpHeaders;
}

export interface StandInApi {
  url: string;
  close(): Promise<void>;
}

export async function startStandInApi(answer: (call: StandInCall) => unknown | { status: number; body: unknown }): Promise<StandInApi> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url !== '/graphql') return void res.writeHead(404).end('{}');
      const { operationName = '', variables } = JSON.parse(body || '{}') as { operationName?: string; variables?: Record<string, unknown> };
      const reply = answer({ operationName, variables, headers: req.headers });
      const own = typeof reply === 'object' && reply !== null && 'status' in reply && 'body' in reply ? (reply as { status: number; body: unknown }) : null;
      res.writeHead(own?.status ?? 200).end(JSON.stringify(own ? own.body : reply));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
