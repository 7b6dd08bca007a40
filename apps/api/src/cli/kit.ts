/**
 * What every CLI command group shares: rejected input (UsageError, exit code 2), argument
 * parsers, the database opened and migrated around a command, and tables and CSV for output.
 */
import { InvalidArgumentError } from 'commander';
import { email as emailField } from '@velvet/validation/registration';
import { EnvError, parseEnv } from '../config.ts';
import type { Env } from '../config.ts';
import { connectDatabase } from '../db/connect.ts';
import type { Db } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';

export const EXIT_USAGE = 2;

/** Input the command rejects: printed to stderr, exit code 2. */
export class UsageError extends Error {}

export function parseBalance(value: string): number {
  if (!/^\d{1,9}$/.test(value.trim())) throw new InvalidArgumentError('must be a non-negative whole number.');
  return Number(value);
}

export function parsePositive(max: number) {
  return (value: string): number => {
    const n = /^\d{1,9}$/.test(value.trim()) ? Number(value) : NaN;
    if (!(n >= 1 && n <= max)) throw new InvalidArgumentError(`must be a whole number from 1 to ${max}.`);
    return n;
  };
}

export function parseEmail(value: string): string {
  const parsed = emailField.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError('must be a valid email address.');
  return parsed.data;
}

/**
 * One CSV field (RFC 4180). A value a spreadsheet would run as a formula (=, +, -, @ first;
 * an address may start with those) gets a leading apostrophe, as OWASP advises for exports.
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csv(header: string[], rows: string[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n');
}

export function parseIsoDate(value: string): Date {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
  const date = new Date(value);
  if (!iso.test(value.trim()) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be an ISO 8601 date, e.g. 2026-12-31 or 2026-12-31T23:59:59Z.');
  }
  return date;
}

export function parseBaseUrl(value: string): string {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidArgumentError('must be an http(s) URL, e.g. https://velvetrope.example.');
  }
  return url.origin + url.pathname.replace(/\/$/, '');
}

export function loadEnv(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) throw new UsageError(error.message);
    throw error;
  }
}

/** Opens the database, migrates, runs `work`, closes. */
export async function withDatabase<T>(work: (db: Db, env: Env) => Promise<T>): Promise<T> {
  const env = loadEnv();
  const database = connectDatabase(env.DATABASE_URL);
  try {
    await migrateToLatest(database.db, { secret: env.APP_SECRET });
    return await work(database.db, env);
  } finally {
    await database.close();
  }
}

export function formatTable(header: string[], cells: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
  return [header, ...cells].map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}
