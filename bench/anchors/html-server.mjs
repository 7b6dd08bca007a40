#!/usr/bin/env node
/**
 * Anchor: the floor for server-rendered pages. A bare `node:http` server that answers every
 * request with the same bytes (the landing page's HTML as the product rendered it for the
 * bench), `content-type: text/html`, nothing else: no framework, no middleware, no rendering.
 *
 *   node bench/anchors/html-server.mjs <port> <HTML file>
 *
 * Prints "listening <port>" when ready; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [portArg, htmlFile] = process.argv.slice(2);
const body = readFileSync(htmlFile);
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.byteLength });
  response.end(body);
});
server.listen(Number(portArg), '127.0.0.1', () => console.log(`listening ${portArg}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
