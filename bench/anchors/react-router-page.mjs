#!/usr/bin/env node
/**
 * Anchor: the bare React Router page (bench/anchor/, the framework's starter shape) rendered by
 * the framework's own Node request listener, in a process of its own — the floor for a page the
 * framework renders per request (issue 19 §5: the origin's `/?rc=` at least half of it).
 * The build must exist (the bench makes it first, bench/lib/anchor-page.mjs).
 *
 *   node bench/anchors/react-router-page.mjs <port>
 *
 * Prints "listening <port>" when ready; stops on SIGTERM.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAnchorBuild, serveBuild } from '../lib/anchor-page.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.argv[2]);
const served = await serveBuild(root, ensureAnchorBuild(root).buildDir, port);
console.log(`listening ${port}`);
process.on('SIGTERM', () => void served.close().then(() => process.exit(0)));
