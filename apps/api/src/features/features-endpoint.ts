/**
 * GrowthBook's features endpoint and streaming protocol, served by the API (ADR 012):
 * GET /api/features/:clientKey answers the payload ({ features, dateUpdated }) with
 * `x-sse-support: enabled`; GET /sub/:clientKey is a server-sent-events stream that sends
 * the payload at once and again as a `features` event on every change, with a keep-alive
 * comment on an idle stream every 20 s. Browsers reach both through the web server's proxy
 * under the site's own host; the API answers only the configured client key.
 */
import { IDLE_STREAM_INTERVAL_MS } from '@velvet/features/constants';
import type { FeaturePayload } from '@velvet/features/definitions';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.ts';
import type { FeatureHub } from './feature-hub.ts';

const FEATURES_PATH = /^\/api\/features\/([^/]+)$/;
const STREAM_PATH = /^\/sub\/([^/]+)$/;

function featuresEvent(payload: FeaturePayload): string {
  return `event: features\ndata: ${JSON.stringify(payload)}\n\n`;
}

export interface FeaturesEndpoint {
  plugin: Plugin;
  /** Open streams right now. */
  readonly streams: number;
  /** Ends every open stream (server shutdown). */
  closeStreams(): void;
}

export function createFeaturesEndpoint({ hub, clientKey, logger, keepAliveMs = IDLE_STREAM_INTERVAL_MS }: {
  hub: FeatureHub;
  clientKey: string;
  logger: Logger;
  keepAliveMs?: number;
}): FeaturesEndpoint {
  const closers = new Set<() => void>();
  const encoder = new TextEncoder();

  const plugin: Plugin = {
    onRequest({ url, request, endResponse, fetchAPI }) {
      const features = FEATURES_PATH.exec(url.pathname);
      const stream = features ? null : STREAM_PATH.exec(url.pathname);
      if (!features && !stream) return;
      const key = decodeURIComponent((features ?? stream)![1]!);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return;
      }
      if (key !== clientKey) {
        endResponse(new fetchAPI.Response(JSON.stringify({ status: 404, error: 'Unknown client key' }), { status: 404, headers: { 'content-type': 'application/json' } }));
        return;
      }
      return hub.payload().then(
        (payload) => {
          if (features) {
            endResponse(
              new fetchAPI.Response(request.method === 'HEAD' ? null : JSON.stringify(payload), {
                status: 200,
                headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', 'x-sse-support': 'enabled' },
              }),
            );
            return;
          }
          let cleanup = () => {};
          const body = new fetchAPI.ReadableStream<Uint8Array>({
            start(controller) {
              const send = (text: string) => {
                try {
                  controller.enqueue(encoder.encode(text));
                } catch {
                  cleanup();
                }
              };
              send(featuresEvent(payload));
              const unsubscribe = hub.subscribe((next) => send(featuresEvent(next)));
              const keepAlive = setInterval(() => send(': keep-alive\n\n'), keepAliveMs);
              const close = () => {
                cleanup();
                try {
                  controller.close();
                } catch {
                  // already closed
                }
              };
              cleanup = () => {
                unsubscribe();
                clearInterval(keepAlive);
                closers.delete(close);
              };
              closers.add(close);
              request.signal.addEventListener('abort', close, { once: true });
            },
            cancel() {
              cleanup();
            },
          });
          endResponse(
            new fetchAPI.Response(body, {
              status: 200,
              headers: {
                'content-type': 'text/event-stream; charset=utf-8',
                'cache-control': 'no-cache',
                connection: 'keep-alive',
                'x-accel-buffering': 'no',
              },
            }),
          );
        },
        (error: unknown) => {
          logger.error({ err: error }, 'features: payload unavailable');
          endResponse(new fetchAPI.Response(JSON.stringify({ status: 503, error: 'Features unavailable' }), { status: 503, headers: { 'content-type': 'application/json' } }));
        },
      );
    },
  };

  return {
    plugin,
    get streams() {
      return closers.size;
    },
    closeStreams() {
      for (const close of [...closers]) close();
    },
  };
}
