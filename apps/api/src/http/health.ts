import type { Plugin } from 'graphql-yoga';
import { HEALTH_PATH } from '../config.ts';
import type { ApiContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import { pingDatabase } from '../db/connect.ts';
import type { Logger } from '../logger.ts';
import { json } from './json-response.ts';

/** Liveness: the process answers (never the database: a database outage is no reason to restart it). */
export const LIVE_PATH = `${HEALTH_PATH}/live`;
/** Readiness: send traffic here (false from SIGTERM on, while the process drains; ADR 062). */
export const READY_PATH = `${HEALTH_PATH}/ready`;

/** Whether the process still wants traffic: false from the moment it was asked to stop (ADR 062). */
export interface Readiness {
  readonly draining: boolean;
  drain(): void;
}

export function createReadiness(): Readiness {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain: () => {
      draining = true;
    },
  };
}

/**
 * GET /health: 200 {status:'ok'} once the database answers, 503
 * {status:'unavailable', database:'unavailable'} while it does not (docs/decisions/027).
 * GET /health/ready: the same, and 503 {status:'draining'} once the process is stopping.
 * GET /health/live: 200 while the process runs its event loop (ADR 062).
 */
export function useHealth(db: Db, logger: Logger, readiness: Readiness = createReadiness()): Plugin<ApiContext> {
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== HEALTH_PATH && url.pathname !== LIVE_PATH && url.pathname !== READY_PATH) return;
      const noStore = { 'cache-control': 'no-store' };
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(json(fetchAPI, 405, { status: 'method not allowed' }, { allow: 'GET, HEAD' }));
        return;
      }
      if (url.pathname === LIVE_PATH) {
        endResponse(json(fetchAPI, 200, { status: 'ok' }, noStore));
        return;
      }
      if (url.pathname === READY_PATH && readiness.draining) {
        endResponse(json(fetchAPI, 503, { status: 'draining' }, noStore));
        return;
      }
      return pingDatabase(db).then(
        () => endResponse(json(fetchAPI, 200, { status: 'ok' }, noStore)),
        (error: unknown) => {
          logger.warn({ err: error }, 'health check failed: database unreachable');
          endResponse(json(fetchAPI, 503, { status: 'unavailable', database: 'unavailable' }, noStore));
        },
      );
    },
  };
}
