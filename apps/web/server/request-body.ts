/**
 * Request bodies, read once and bounded whatever the framing (ADR 028). Every request that
 * carries a body (Content-Length or Transfer-Encoding) is read here, before any handler sees
 * it: bytes are counted as they arrive, and as soon as the count passes the route's limit the
 * server stops reading, answers 413 and closes the connection. A declared Content-Length over
 * the limit is refused before a byte is read. Handlers then take the bytes from `bodyOf(req)`;
 * nothing downstream reads the socket again, so no route can forget its limit.
 */
import type express from 'express';
import getRawBody from 'raw-body';
import { refusedBody } from './error-pages.ts';

const bodies = new WeakMap<express.Request, Buffer>();

/** The request's body as read by `readBodies`; undefined when it had none. */
export function bodyOf(req: express.Request): Buffer | undefined {
  return bodies.get(req);
}

/** The body as a Fetch API body (a view of the same bytes). */
export function fetchBody(req: express.Request): Uint8Array<ArrayBuffer> | null {
  const body = bodies.get(req);
  return body ? new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength) : null;
}

function hasBody(req: express.Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/** Answers, then ends the connection: the rest of the body is never read. */
function refuse(req: express.Request, res: express.Response, answer: (req: express.Request, res: express.Response) => void) {
  req.unpipe();
  req.pause();
  res.setHeader('Connection', 'close');
  answer(req, res);
}

export function readBodies(limitFor: (req: express.Request) => number): express.RequestHandler {
  return (req, res, next) => {
    if (bodies.has(req) || !hasBody(req)) {
      next();
      return;
    }
    const limit = limitFor(req);
    const declared = req.headers['content-length'];
    if (declared !== undefined && !(Number(declared) <= limit)) {
      refuse(req, res, Number.isSafeInteger(Number(declared)) ? refusedBody.tooLarge : refusedBody.malformed);
      return;
    }
    getRawBody(req, { limit, length: declared }, (error, body) => {
      if (!error) {
        bodies.set(req, body);
        next();
        return;
      }
      const type = (error as { type?: string }).type;
      if (type === 'request.aborted' || res.headersSent) return; // the visitor left
      refuse(req, res, type === 'entity.too.large' ? refusedBody.tooLarge : refusedBody.malformed);
    });
  };
}

/** The media types a page's form is sent as (what browsers and React Router's fetches post). */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * A request to a page that changes something must carry a form, as the page's action reads
 * one. Answers 415 (no form: JSON, text, no body…) or 400 (a form that does not parse, e.g. a
 * broken multipart body) and returns false; true when the request may go on.
 */
export async function acceptFormBody(req: express.Request, res: express.Response): Promise<boolean> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
  // No Content-Type, JSON, text…: every page's action reads a form, so none of these could be one.
  if (!req.is(FORM_TYPES)) {
    refusedBody.notAForm(req, res);
    return false;
  }
  const contentType = req.get('content-type') ?? '';
  try {
    await new Response(fetchBody(req), { headers: { 'content-type': contentType } }).formData();
    return true;
  } catch {
    refusedBody.malformed(req, res);
    return false;
  }
}
