import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type { Env } from './config.ts';

export type { Logger } from 'pino';

/** Field names never written to a log, at any of the first three levels of nesting. */
const PERSONAL_FIELDS = [
  'email',
  'password',
  'authorization',
  'cookie',
  'set-cookie',
  'firstName',
  'lastName',
  'first_name',
  'last_name',
  'recipient',
  'password_hash',
];

const REDACT_PATHS = PERSONAL_FIELDS.flatMap((field) => {
  const key = /^[a-z_]+$/i.test(field) ? field : `["${field}"]`;
  const dotted = key.startsWith('[') ? key : `.${key}`;
  return [key, `*${dotted}`, `*.*${dotted}`];
});

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: DestinationStream): Logger {
  return pino(
    {
      name: 'api',
      level: env.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'velvet-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
