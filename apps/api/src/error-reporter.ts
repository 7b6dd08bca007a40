/** The API's error reporter (ADR 013): unexpected errors go to ERROR_REPORTING_URL, scrubbed; none when it is unset. */
import { httpTransport } from '@velvet/error-reporting/node-transport';
import { createReporter } from '@velvet/error-reporting/reporter';
import type { Reporter } from '@velvet/error-reporting/reporter';
import type { Env } from './config.ts';
import type { Logger } from './logger.ts';

export function createApiErrorReporter(env: Pick<Env, 'ERROR_REPORTING_URL' | 'ACQ_ENVIRONMENT'>, logger: Logger): Reporter | undefined {
  if (!env.ERROR_REPORTING_URL) return undefined;
  return createReporter({
    platform: 'node',
    logger: 'api',
    environment: env.ACQ_ENVIRONMENT,
    release: process.env.npm_package_version,
    transport: httpTransport({
      url: env.ERROR_REPORTING_URL,
      onFailure: (error) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'error report not delivered'),
    }),
  });
}
