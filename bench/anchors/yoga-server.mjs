#!/usr/bin/env node
/**
 * Anchor: a bare GraphQL Yoga server (createYoga with its defaults, no plugins of ours, no
 * database) over the API's own schema (apps/api/schema.graphql), whose only resolver answers
 * `registrationCodeDetails` with a fixed object: the `data` the real API gave the bench's
 * probe. Same query, same schema (same parse and validation work), same response bytes.
 *
 *   node bench/anchors/yoga-server.mjs <port> <file with the probe's JSON response>
 *
 * Prints "listening <port>" when ready; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSchema, createYoga } from 'graphql-yoga';

const [portArg, responseFile] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const typeDefs = readFileSync(path.join(root, 'apps/api/schema.graphql'), 'utf8');
/** @type {{ data: { registrationCodeDetails: unknown } }} */
const probe = JSON.parse(readFileSync(responseFile, 'utf8'));
const details = probe.data.registrationCodeDetails;

const yoga = createYoga({
  schema: createSchema({ typeDefs, resolvers: { Query: { registrationCodeDetails: () => details } } }),
  graphiql: false,
  landingPage: false,
  logging: false,
});
const server = createServer(yoga);
server.listen(Number(portArg), '127.0.0.1', () => console.log(`listening ${portArg}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
