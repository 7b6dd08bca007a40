/**
 * Picks the database engine from DATABASE_URL: `file:<path>` is SQLite (embedded,
 * the default), `postgres://` / `postgresql://` is PostgreSQL.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
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
  /** PostgreSQL only: pool size (default 10). */
  poolSize?: number;
}

export function databaseEngine(url: string): DatabaseEngine {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  throw new Error('DATABASE_URL must start with file: (SQLite) or postgres:// (PostgreSQL)');
}

/** Opens the database named by `url`. Does not migrate (see migrate.ts). */
export function connectDatabase(url: string, options: ConnectOptions = {}): DatabaseConnection {
  const engine = databaseEngine(url);
  const db = engine === 'sqlite' ? openSqlite(url) : openPostgres(url, options);
  return { db, engine, close: () => db.destroy() };
}

function openSqlite(url: string): Db {
  const file = url.slice('file:'.length);
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }), plugins: [new SqliteBooleanPlugin()] });
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

function openPostgres(url: string, options: ConnectOptions): Db {
  const schema = options.postgresSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('invalid PostgreSQL schema name');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** A cheap round trip, for /health. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
