/**
 * Closes an HTTP server the way a draining process must (ADR 062): no new connection is accepted,
 * requests in flight are answered, and each keep-alive connection is ended as soon as it is idle
 * — Node's server.close() ends only the connections idle at that moment, and would otherwise wait
 * for the others' keep-alive time-out. Resolves once the last connection has ended.
 */
import type { Server } from 'node:http';

/** How often connections that went idle since close() are ended. */
const SWEEP_MS = 50;

export function closeHttpServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (!server.listening) return resolve();
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
    server.close((error) => {
      clearInterval(sweep);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
