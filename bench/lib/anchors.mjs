/**
 * The anchors: bare servers started by the benchmark itself, in a process of their own (as the
 * product's servers are), so that every figure is compared with what the same machine does
 * without our code in the same run (bench/anchors/*.mjs).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuClock } from './cpu.mjs';

/**
 * @typedef {object} Anchor
 * @property {string} url   e.g. http://127.0.0.1:3411
 * @property {() => Promise<void>} stop
 * @property {(() => number) | null} cpu CPU milliseconds the anchor used so far (Linux)
 */

/**
 * Starts `bench/anchors/<script>` on `port` and waits (bounded) until it says it listens.
 * @param {string} root repository root
 * @param {string} script e.g. 'html-server.mjs'
 * @param {number} port
 * @param {string[]} args further arguments after the port
 * @param {(cleanup: () => unknown) => () => void} onCleanup
 * @returns {Promise<Anchor>}
 */
export async function startAnchor(root, script, port, args, onCleanup) {
  const child = spawn(process.execPath, [path.join(root, 'bench/anchors', script), String(port), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  const listening = new Promise((resolve) => {
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
      output += chunk.toString('utf8');
      if (output.includes(`listening ${port}`)) resolve(true);
    });
    child.once('exit', () => {
      exited = true;
      resolve(false);
    });
  });
  child.stderr.on('data', (/** @type {Buffer} */ chunk) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  });
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    for (let i = 0; i < 30 && !exited; i++) await sleep(100);
    if (!exited) child.kill('SIGKILL');
  };
  const forget = onCleanup(stop);
  const ok = await Promise.race([listening, sleep(15_000).then(() => false)]);
  if (!ok) {
    await stop();
    forget();
    throw new Error(`anchor ${script} did not start on port ${port}: ${output.trim() || '(no output)'}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    cpu: cpuClock(/** @type {number} */ (child.pid)),
    async stop() {
      await stop();
      forget();
    },
  };
}
