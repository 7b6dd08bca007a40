/**
 * The standard parts of the reference topology (deploy/, issue 23, ADR 064) started on this
 * machine from the repository's own files, as an operator's envsubst would fill them: nginx (the
 * shared HTTP cache), HAProxy (the load balancer), PgBouncer (the pooler) and Redis, each from
 * Debian's packages. Used by the shared-cache tests, the cluster test and the bench.
 *
 * Each starter runs its engine in the foreground as a child of this process and resolves once
 * the engine answers; `stop()` ends it (SIGTERM; nginx SIGQUIT), `kill()` with SIGKILL, `start()`
 * again on the same port and files (a restart).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const asRoot = process.getuid?.() === 0;

/**
 * A template of deploy/ filled in as envsubst does; a line naming one of `lists`' variables is
 * written once per value (an upstream's `server` line per origin).
 * @param {string} file path under the repository
 * @param {Record<string, string>} values
 * @param {Record<string, string[]>} [lists]
 */
export function fillTemplate(file, values, lists = {}) {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const out = [];
  for (const line of lines) {
    const listName = Object.keys(lists).find((name) => line.includes(`\${${name}}`));
    const copies = listName ? lists[listName].map((value, i) => ({ ...values, [listName]: value, INDEX: String(i + 1) })) : [values];
    for (const scope of copies) {
      out.push(
        line.replace(/\$\{(\w+)\}/g, (_, name) => {
          if (!(name in scope)) throw new Error(`${file}: no value for \${${name}}`);
          return scope[name];
        }),
      );
    }
  }
  return out.join('\n');
}

/** Whether something accepts TCP connections on host:port. */
function accepts(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * An engine in the foreground: started now, and again by `start()` after `stop()` or `kill()`.
 * @param {{ name: string, command: string, args: string[], host: string, port: number, stateDir: string, stdio?: 'inherit' | 'ignore' }} spec
 */
async function foreground(spec) {
  if (!existsSync(spec.command)) throw new Error(`${spec.name} is needed: apt-get install ${spec.name} (not found at ${spec.command})`);
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  /** @type {Promise<unknown>} */
  let exited = Promise.resolve();
  const start = async () => {
    child = spawn(spec.command, spec.args, { stdio: spec.stdio ?? 'ignore' });
    const current = child;
    exited = new Promise((resolve) => current.once('exit', resolve));
    const deadline = Date.now() + 15_000;
    while (!(await accepts(spec.host, spec.port))) {
      if (current.exitCode !== null || current.signalCode !== null) throw new Error(`${spec.name} exited (${current.exitCode ?? current.signalCode}); see ${spec.stateDir}`);
      if (Date.now() > deadline) throw new Error(`${spec.name} did not listen on ${spec.host}:${spec.port}; see ${spec.stateDir}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const end = async (/** @type {NodeJS.Signals} */ signal) => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  await start();
  return {
    start,
    /** nginx gracefully (SIGQUIT: kept connections finish); the others at once, as a crash or a restart would. */
    stop: () => end(spec.name === 'nginx' ? 'SIGQUIT' : 'SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

/** A directory of its own for an engine's files (writable by the user the engine drops to as root). */
function stateDirFor(name, stateDir) {
  const dir = stateDir ?? mkdtempSync(path.join(os.tmpdir(), `velvet-${name}-`));
  mkdirSync(dir, { recursive: true });
  if (asRoot) chmodSync(dir, 0o777);
  return dir;
}

const hostPort = (/** @type {string} */ address) => {
  const at = address.lastIndexOf(':');
  return at < 0 ? { host: '127.0.0.1', port: Number(address) } : { host: address.slice(0, at), port: Number(address.slice(at + 1)) };
};

/**
 * nginx, the shared HTTP cache (deploy/nginx/nginx.conf.template), in front of one web origin or
 * several; `workers`: its worker processes, `auto` (one per core) unless told.
 * @param {{ listen: string, origin?: string, origins?: string[], stateDir?: string, workers?: number | 'auto', stdio?: 'inherit' | 'ignore' }} options
 */
export async function startNginx({ listen, origin, origins = origin ? [origin] : [], stateDir, workers = 'auto', stdio = 'ignore' }) {
  const dir = stateDirFor('nginx', stateDir);
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(
    file,
    fillTemplate('deploy/nginx/nginx.conf.template', { NGINX_LISTEN: listen, NGINX_STATE_DIR: dir, NGINX_WORKER_PROCESSES: String(workers) }, { WEB_ORIGIN: origins }),
  );
  // As root (CI), the workers keep root's user, who owns the state directory.
  const globals = `daemon off;${asRoot ? ' user root root;' : ''}`;
  const engine = await foreground({ name: 'nginx', command: process.env.NGINX_PATH ?? '/usr/sbin/nginx', args: ['-c', file, '-g', globals], ...hostPort(listen), stateDir: dir, stdio });
  return { ...engine, url: `http://${listen.includes(':') ? listen : `127.0.0.1:${listen}`}` };
}

/**
 * HAProxy, the load balancer (deploy/haproxy/haproxy.cfg.template), over the web and API origins.
 * `apiListen` is the API's public address, `apiInternalListen` the web origins' API_URL.
 * @param {{ webListen: string, apiListen: string, apiInternalListen: string, webOrigins: string[], apiOrigins: string[], stateDir?: string, stdio?: 'inherit' | 'ignore' }} options
 */
export async function startHaproxy({ webListen, apiListen, apiInternalListen, webOrigins, apiOrigins, stateDir, stdio = 'ignore' }) {
  const dir = stateDirFor('haproxy', stateDir);
  const file = path.join(dir, 'haproxy.cfg');
  const filled = fillTemplate(
    'deploy/haproxy/haproxy.cfg.template',
    { HAPROXY_STATE_DIR: dir, HAPROXY_WEB_LISTEN: webListen, HAPROXY_API_LISTEN: apiListen, HAPROXY_API_INTERNAL_LISTEN: apiInternalListen },
    { WEB_ORIGIN: webOrigins, API_ORIGIN: apiOrigins },
  );
  // Each origin's `server` line needs a name of its own: web1, web2… (the template's one line per origin).
  const counts = { web: 0, api: 0 };
  writeFileSync(file, filled.replace(/^(\s*server (web|api)) /gm, (_, line, backend) => `${line}${(counts[backend] += 1)} `));
  const engine = await foreground({ name: 'haproxy', command: process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy', args: ['-W', '-db', '-f', file], ...hostPort(webListen), stateDir: dir, stdio });
  return { ...engine, stateDir: dir, webUrl: `http://${webListen}`, apiUrl: `http://${apiListen}`, apiInternalUrl: `http://${apiInternalListen}` };
}

/**
 * PgBouncer in transaction mode (deploy/pgbouncer/pgbouncer.ini.template) in front of the
 * PostgreSQL at `postgres` (host:port), trusting loopback like the test machine's server.
 * @param {{ listen: string, postgres: string, stateDir?: string, stdio?: 'inherit' | 'ignore' }} options
 */
export async function startPgbouncer({ listen, postgres, stateDir, stdio = 'ignore' }) {
  const dir = stateDirFor('pgbouncer', stateDir);
  const { host, port } = hostPort(listen);
  const server = hostPort(postgres);
  const file = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  let ini = fillTemplate('deploy/pgbouncer/pgbouncer.ini.template', {
    PGBOUNCER_LISTEN_ADDR: host,
    PGBOUNCER_PORT: String(port),
    POSTGRES_HOST: server.host,
    POSTGRES_PORT: String(server.port),
    PGBOUNCER_STATE_DIR: dir,
    PGBOUNCER_AUTH_TYPE: 'trust',
  });
  // PgBouncer refuses to run as root: it drops to an unprivileged user.
  if (asRoot) ini = ini.replace('[pgbouncer]\n', '[pgbouncer]\nuser = nobody\n');
  writeFileSync(file, ini);
  const engine = await foreground({ name: 'pgbouncer', command: process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer', args: [file], host, port, stateDir: dir, stdio });
  return { ...engine, url: (/** @type {string} */ database) => `postgres://postgres@${host}:${port}/${database}` };
}

/**
 * A Redis of its own (no persistence), so a test may restart it without touching the machine's.
 * @param {{ port: number, stateDir?: string, stdio?: 'inherit' | 'ignore' }} options
 */
export async function startRedis({ port, stateDir, stdio = 'ignore' }) {
  const dir = stateDirFor('redis', stateDir);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const engine = await foreground({ name: 'redis-server', command: process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server', args, host: '127.0.0.1', port, stateDir: dir, stdio });
  return { ...engine, url: `redis://127.0.0.1:${port}` };
}
