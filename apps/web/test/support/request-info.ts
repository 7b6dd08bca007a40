/** The feature-flag and error-reporting parts of RequestInfo for tests that build one by hand. */
import type { RequestInfo } from '../../app/lib/context.ts';

export function testRequestExtras(overrides: Partial<Pick<RequestInfo, 'features' | 'errors'>> = {}): Pick<RequestInfo, 'features' | 'errors'> {
  return {
    features: { clientKey: 'sdk-test', payload: () => Promise.resolve({ features: {}, dateUpdated: '2026-11-22T00:00:00.000Z' }) },
    errors: { browserEndpoint: null, report: () => undefined, apiFailure: () => undefined },
    ...overrides,
  };
}
