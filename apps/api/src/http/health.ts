import type { Plugin } from 'graphql-yoga';
import { HEALTH_PATH } from '../config.ts';
import type { ApiContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import { pingDatabase } from '../db/connect.ts';
import type { Logger } from '../logger.ts';
import { json } from './json-response.ts';

/**
 * GET /health: 200 {status:'ok'} once the database answers, 503
 * {status:'unavailable', database:'unavailable'} while it does not (docs/decisions/027).
 */
export function useHealth(db: Db, logger: Logger): Plugin<ApiContext> {
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== HEALTH_PATH) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(json(fetchAPI, 405, { status: 'method not allowed' }, { allow: 'GET, HEAD' }));
        return;
      }
      return pingDatabase(db).then(
        () => endResponse(json(fetchAPI, 200, { status: 'ok' }, { 'cache-control': 'no-store' })),
        (error: unknown) => {
          logger.warn({ err: error }, 'health check failed: database unreachable');
          endResponse(json(fetchAPI, 503, { status: 'unavailable', database: 'unavailable' }, { 'cache-control': 'no-store' }));
        },
      );
    },
  };
}
