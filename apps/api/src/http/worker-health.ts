/**
 * The worker role's only port (ADR 062): GET /health/live (the process answers) and
 * GET /health/ready and /health (its outbox loop runs and it is not stopping), for the
 * platform's health checks. Nothing else is served.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { HEALTH_PATH } from '../config.ts';
import { LIVE_PATH, READY_PATH } from './health.ts';
import type { Readiness } from './health.ts';

export function createWorkerHealthServer(options: { readiness: Readiness; running: () => boolean }): Server {
  return createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer = (status: number, body: object, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
      response.end(request.method === 'HEAD' ? undefined : JSON.stringify(body));
    };
    if (path !== LIVE_PATH && path !== READY_PATH && path !== HEALTH_PATH) return answer(404, { status: 'not found' });
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, { status: 'method not allowed' }, { allow: 'GET, HEAD' });
    if (path === LIVE_PATH) return answer(200, { status: 'ok' });
    if (options.readiness.draining) return answer(503, { status: 'draining' });
    return options.running() ? answer(200, { status: 'ok' }) : answer(503, { status: 'not running' });
  });
}
