/**
 * Picks the database engine from DATABASE_URL: `file:<path>` is SQLite (embedded,
 * the default), `postgres://` / `postgresql://` is PostgreSQL.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, sql } from 'kysely';
import type { DatabaseConnection as KyselyConnection, Driver, SqliteDialectConfig, SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DatabaseEngine } from './engine.ts';
import type { Database } from './schema.ts';
import { SqliteBooleanPlugin } from './sqlite-boolean-plugin.ts';

export type { DatabaseEngine };
export type Db = Kysely<Database>;

export interface DatabaseConnection {
  db: Db;
  engine: DatabaseEngine;
  /** Closes the pool / file handle. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** PostgreSQL only: the schema put first on the search_path (tests use one per file). */
  postgresSchema?: string;
  /**
   * PostgreSQL only: connections in the pool (default 10; the API passes DATABASE_POOL_SIZE, which
   * also caps the operations it runs at once: http/admission.ts, ADR 052).
   */
  poolSize?: number;
  /**
   * PostgreSQL only: told about a connection the server or the network dropped (idle in the
   * pool or checked out). The pool discards that connection and opens a new one on demand;
   * without a listener the dropped connection's 'error' event would end the process.
   */
  onConnectionError?: (error: Error) => void;
}

function databaseEngine(url: string): DatabaseEngine {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  throw new Error('DATABASE_URL must start with file: (SQLite) or postgres:// (PostgreSQL)');
}

/** A database handle with the health check's own way in (pingDatabase). */
interface Opened {
  db: Db;
  /** One round trip that never waits behind the operations queued for the pool. */
  ping: () => Promise<void>;
  /** Closes what the ping opened. */
  closePing: () => Promise<void>;
}

/** The ping of each open database, for /health (pingDatabase). */
const pings = new WeakMap<Db, () => Promise<void>>();

/** Opens the database named by `url`. Does not migrate (see migrate.ts). */
export function connectDatabase(url: string, options: ConnectOptions = {}): DatabaseConnection {
  const engine = databaseEngine(url);
  const { db, ping, closePing } = engine === 'sqlite' ? openSqlite(url) : openPostgres(url, options);
  pings.set(db, ping);
  return {
    db,
    engine,
    close: async () => {
      await db.destroy();
      await closePing();
    },
  };
}

function openSqlite(url: string): Opened {
  const file = url.slice('file:'.length);
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: keepingStatements(database) }), plugins: [new SqliteBooleanPlugin()] });
  // Kysely runs one query at a time on the file's one connection, behind every transaction in
  // progress; the health check asks the handle itself, which answers between their statements.
  const select1 = database.prepare('select 1');
  return { db, ping: () => Promise.resolve().then(() => void select1.get()), closePing: () => Promise.resolve() };
}

/** How many compiled statements the SQLite handle keeps (our queries are a few dozen shapes). */
const KEPT_STATEMENTS = 500;

/** SQLite has no boolean type and better-sqlite3 refuses to bind one: true and false are bound as 1 and 0. */
const bindable = (parameters: readonly unknown[]): unknown[] => parameters.map((value) => (typeof value === 'boolean' ? Number(value) : value));

/**
 * The handle Kysely prepares its queries on, keeping each compiled statement by its SQL: a
 * better-sqlite3 statement is made to be run again (prepare once, run many — the driver's own
 * way), and compiling it anew was a tenth of an invitation check's time (ADR 053). Bounded: a
 * full set is dropped and refilled. No query of ours streams (`iterate`), the one use that
 * could not share a statement; SQLite recompiles a kept statement itself after a schema change.
 * Booleans are bound as 1/0 here, at the parameters, rather than by rewriting every query's
 * operation tree in a plugin (that walk was 3 % of an invitation check's CPU); the plugin
 * reads them back (db/sqlite-boolean-plugin.ts).
 */
function keepingStatements(database: SqliteDatabase.Database): SqliteDialectConfig['database'] {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= KEPT_STATEMENTS) statements.clear();
        const prepared = database.prepare(sql);
        statement = {
          reader: prepared.reader,
          all: (parameters) => prepared.all(bindable(parameters)),
          run: (parameters) => prepared.run(bindable(parameters)),
          iterate: (parameters) => prepared.iterate(bindable(parameters)),
        };
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Every SQLite transaction starts with `BEGIN IMMEDIATE`: it holds the database's write lock
 * from its first statement, so one that reads and then writes can never fail with
 * SQLITE_BUSY_SNAPSHOT because another process (the CLI) committed in between — other writers
 * wait instead (busy_timeout). Row locks need no write of their own then (db/lock.ts, ADR 036).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: KyselyConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

const { types } = pg;
const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

/**
 * Timestamps come back as the same ISO-8601 strings SQLite stores; int8 (what count()
 * returns) as a JS number: our counts are far below 2^53.
 */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      if (oid === TIMESTAMPTZ_OID) return (value: string) => new Date(value).toISOString();
      if (oid === TIMESTAMP_OID) return (value: string) => new Date(`${value}Z`).toISOString();
      if (oid === INT8_OID) return (value: string) => Number(value);
    }
    return types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** How long opening a PostgreSQL connection may take. */
const CONNECTION_TIMEOUT_MS = 5_000;
/** How long the health check's `select 1` may take once connected. */
const PING_TIMEOUT_MS = 5_000;
/** The health check's connection is closed after this long without a check. */
const PING_IDLE_MS = 60_000;

function openPostgres(url: string, options: ConnectOptions): Opened {
  const schema = options.postgresSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('invalid PostgreSQL schema name');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    // A server that does not answer must not hold a request for ever: the request gets
    // SERVICE_UNAVAILABLE after this long instead (isDatabaseUnavailable). pg-pool applies the
    // same time-out to waiting for a busy pool's next free connection, so the API keeps that
    // wait short by running at most `max` operations at once (http/admission.ts, ADR 052).
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const onError = options.onConnectionError ?? (() => undefined);
  // Idle clients report through the pool; checked-out ones only on themselves, so every
  // client gets a listener of its own when it connects (pg-pool then removes the broken one).
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const health = postgresPing(url, onError);
  return { db, ...health };
}

/**
 * The health check's own connection (opened on the first check, closed after a minute without
 * one): a busy pool is load, not an outage, so /health must not queue behind the requests that
 * wait for the pool's connections (ADR 052). It fails only when the server cannot be reached or
 * does not answer `select 1` within PING_TIMEOUT_MS.
 */
function postgresPing(url: string, onError: (error: Error) => void): Pick<Opened, 'ping' | 'closePing'> {
  let pool: pg.Pool | undefined;
  const open = () => {
    const opened = new pg.Pool({
      connectionString: url,
      max: 1,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      query_timeout: PING_TIMEOUT_MS,
      idleTimeoutMillis: PING_IDLE_MS,
      allowExitOnIdle: true,
    });
    opened.on('error', onError);
    opened.on('connect', (client) => client.on('error', onError));
    return opened;
  };
  return {
    async ping() {
      pool ??= open();
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        await client.query('select 1');
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        // A connection that failed its ping is closed, not reused.
        client.release(failure);
      }
    },
    async closePing() {
      const closing = pool;
      pool = undefined;
      await closing?.end();
    },
  };
}

/**
 * A cheap round trip, for /health: on its own way in (connectDatabase), never behind the
 * operations waiting for the pool.
 */
export async function pingDatabase(db: Db): Promise<void> {
  const ping = pings.get(db);
  if (ping) return ping();
  await sql`select 1`.execute(db);
}

const UNAVAILABLE_CODES = new Set([
  // node: the server cannot be reached
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: shut down, restarting, terminated by an administrator, too many connections,
  // log-in refused (a role locked during maintenance)
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '28000',
  // SQLite: the file is locked or cannot be opened
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Cannot use a pool after calling end/,
  /^The database connection is not open/,
];

/**
 * True when `error` says the database cannot be reached right now (a dropped or refused
 * connection, a server shutting down), not that the operation was wrong: such requests
 * get SERVICE_UNAVAILABLE and the client may retry (docs/decisions/027).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return false;
}
