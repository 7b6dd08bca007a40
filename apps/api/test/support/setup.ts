/** A test fails when anything writes to console.error that the test did not expect. */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { MockInstance } from 'vitest';

let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockRestore();
  expect(calls, 'unexpected console.error').toEqual([]);
});
