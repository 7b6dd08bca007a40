/**
 * The root loader's part of feature flags and A/B tests (ADR 012): the payload the web
 * server holds, the visitor's attributes and whether testing is on for this page.
 *
 * The anonymous id needs no storage before consent: without a stored one it is a fresh
 * random UUID for this page load, rendered into the page (the browser evaluates with the
 * same id, so hydration matches). Only once the visitor granted analytics does the page
 * keep it in a first-party cookie, which later requests then use — from then on the
 * assignment is sticky. A cookie whose visitor has no analytics consent is ignored.
 */
import { randomUUID } from 'node:crypto';
import { DISABLE_PARAM } from '@velvet/features/constants';
import type { RouterContextProvider } from 'react-router';
import { applicationCountry } from './consent.server.ts';
import { choiceFromCookie } from './consent-shared.ts';
import { requestInfoContext } from './context.ts';
import { ANONYMOUS_ID_COOKIE, ANONYMOUS_ID_PATTERN, type ExperimentsData } from './experiments-shared.ts';
import { readCookie } from './i18n.ts';

export function testingDisabled(url: URL): boolean {
  return url.searchParams.get(DISABLE_PARAM)?.toLowerCase() === 'true';
}

export async function experimentsData(request: Request, context: Readonly<RouterContextProvider>): Promise<ExperimentsData> {
  const info = context.get(requestInfoContext);
  const cookieHeader = request.headers.get('cookie') ?? '';
  const stored = readCookie(cookieHeader, ANONYMOUS_ID_COOKIE);
  const consented = choiceFromCookie(cookieHeader)?.analytics === true;
  const usable = consented && stored !== undefined && ANONYMOUS_ID_PATTERN.test(stored);
  return {
    clientKey: info.features.clientKey,
    // At once, never waiting for the API (ADR 028): the relay's last payload, else the versioned file.
    payload: await info.features.payload(),
    attributes: {
      acqAnonymousId: usable ? stored : randomUUID(),
      applicationCountry: applicationCountry(request, info.trustedCountryHeader),
    },
    enabled: !testingDisabled(new URL(request.url)),
    anonymousIdStored: usable,
  };
}
