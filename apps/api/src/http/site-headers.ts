/**
 * The API's first look at a request (issue 18 §1): a Host or Origin that no address can be
 * built from (`a<b`, `a/b`, `^`…) is answered with a short JSON 400 before Yoga, whose adapter
 * would throw on it and answer a 500 with a stack trace. The same for a websocket upgrade.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { unusableSiteHeader } from '@velvet/validation/request-head';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The header that makes the request unusable, or null. */
function unusable(req: IncomingMessage) {
  // The API builds no address from X-Forwarded-Host, so only Host and Origin are read.
  return unusableSiteHeader((name) => single(req.headers[name]), false);
}

const BODY = JSON.stringify({ errors: [{ message: 'Bad request: the Host or Origin header is not a usable address.' }] });

/** `listener` behind the check. */
export function refuseUnusableSiteHeaders(listener: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!unusable(req)) return listener(req, res);
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY), 'cache-control': 'no-store' }).end(BODY);
  };
}

/** For the upgrade event: true when the socket was answered with a 400 and closed. */
export function refusedUpgrade(req: IncomingMessage, socket: Duplex): boolean {
  if (!unusable(req)) return false;
  socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  return true;
}
