/** The feature-flag, error-reporting and calendar parts of RequestInfo for tests that build one by hand. */
import type { RequestInfo } from '../../app/lib/page/context.ts';

type Extras = Pick<RequestInfo, 'features' | 'errors' | 'calendarNow'>;

/** A fixed calendar day outside any promotion (ADR 021): tests never read the real date. */
const TEST_CALENDAR_NOW = new Date('2026-06-15T10:00:00.000Z');

export function testRequestExtras(overrides: Partial<Extras> = {}): Extras {
  return {
    features: { clientKey: 'sdk-test', payload: () => Promise.resolve({ features: {}, dateUpdated: '2026-11-22T00:00:00.000Z' }) },
    errors: { browserEndpoint: null, report: () => undefined, apiFailure: () => undefined },
    calendarNow: TEST_CALENDAR_NOW,
    ...overrides,
  };
}
