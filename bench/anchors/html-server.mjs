#!/usr/bin/env node
/**
 * Anchor: the floor for server-rendered pages. A bare `node:http` server that answers every
 * request with the same bytes (the landing page's HTML as the product rendered it for the
 * bench), `content-type: text/html`, nothing else: no framework, no middleware, no rendering.
 * A request that accepts gzip gets those bytes gzip-compressed (-9), compressed once at start:
 * the floor for what browsers ask for.
 *
 *   node bench/anchors/html-server.mjs <port> <HTML file>
 *
 * Prints "listening <port>" when ready; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

const [portArg, htmlFile] = process.argv.slice(2);
const body = readFileSync(htmlFile);
const gzipped = gzipSync(body, { level: 9 });
const server = createServer((request, response) => {
  if (request.headers['accept-encoding']?.includes('gzip')) {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': gzipped.byteLength });
    response.end(gzipped);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.byteLength });
  response.end(body);
});
server.listen(Number(portArg), '127.0.0.1', () => console.log(`listening ${portArg}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
