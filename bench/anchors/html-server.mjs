#!/usr/bin/env node
/**
 * Anchor: the floor for server-rendered pages. A bare `node:http` server that answers every
 * request with the same bytes (the landing page's HTML as the product rendered it for the
 * bench), `content-type: text/html`, nothing else: no framework, no middleware, no rendering.
 * A request that accepts gzip gets those bytes gzip-compressed (-9), compressed once at start:
 * the floor for what browsers ask for.
 *
 * With a recorded response (the shared-cache section records the page as nginx answered it), a
 * request that accepts gzip gets exactly that response instead: its headers and its compressed
 * body (in whatever encoding nginx sent, brotli for a Chromium), byte for byte. The floor then sends the same bytes as the cache, headers included (a
 * client parses every header line: 1.3 kB of them against 3 made the floor look cheaper than it is).
 *
 * With several recorded bodies (a lengths JSON splits the body file), the answers take them in turn:
 * nginx answers from one of a page's 256 copies per request, and the floor sends the same stream.
 *
 *   node bench/anchors/html-server.mjs <port> <HTML file> [<recorded headers JSON> <recorded compressed body or bodies> [<their lengths JSON>]]
 *
 * Prints "listening <port>" when ready; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

const [portArg, htmlFile, headersFile, compressedFile, lengthsFile] = process.argv.slice(2);
const body = readFileSync(htmlFile);
const compressed = compressedFile ? readFileSync(compressedFile) : gzipSync(body, { level: 9 });
/** The compressed bodies in the order they are sent: the recording split by its lengths, else the one. */
const bodies = [];
if (lengthsFile) {
  let at = 0;
  for (const length of /** @type {number[]} */ (JSON.parse(readFileSync(lengthsFile, 'utf8')))) {
    bodies.push(compressed.subarray(at, at + length));
    at += length;
  }
} else bodies.push(compressed);
let next = 0;
/** The recorded response's header lines, [name, value][] (node:http adds Date, Connection and Keep-Alive itself). */
const compressedHeaders = headersFile
  ? (/** @type {[string, string][]} */ (JSON.parse(readFileSync(headersFile, 'utf8')))).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name.toLowerCase()))
  : [['content-type', 'text/html; charset=utf-8'], ['content-encoding', 'gzip'], ['content-length', String(compressed.byteLength)]];
const server = createServer((request, response) => {
  if (request.headers['accept-encoding']?.includes('gzip')) {
    response.writeHead(200, compressedHeaders.flat());
    response.end(bodies[next++ % bodies.length]);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.byteLength });
  response.end(body);
});
server.listen(Number(portArg), '127.0.0.1', () => console.log(`listening ${portArg}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
