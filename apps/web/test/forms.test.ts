import { describe, expect, it } from 'vitest';
import { isCancellation } from '../app/lib/error-reporting/cancelled-navigations.ts';
import { isFieldCheck } from '../app/lib/forms/forms.ts';

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.set(key, value);
  return data;
}

describe('server-validated forms', () => {
  const fieldCheck = form({ intent: 'one-step', email: 'a@b.example', __intent__: JSON.stringify({ type: 'validate', payload: { name: 'email' } }) });
  const submission = form({ intent: 'one-step', email: 'a@b.example' });

  it('tells a field check from a submission', () => {
    expect(isFieldCheck(fieldCheck)).toBe(true);
    expect(isFieldCheck(submission)).toBe(false);
    expect(isFieldCheck(undefined)).toBe(false);
  });
});

describe('cancelled navigations', () => {
  it('are the AbortErrors of superseded requests, and nothing else', () => {
    const controller = new AbortController();
    controller.abort();
    expect(isCancellation(controller.signal.reason)).toBe(true);
    expect(isCancellation(new DOMException('stopped', 'AbortError'))).toBe(true);
    expect(isCancellation(new TypeError('Failed to fetch'))).toBe(false);
    expect(isCancellation(new Error('boom'))).toBe(false);
    expect(isCancellation('AbortError')).toBe(false);
    expect(isCancellation(undefined)).toBe(false);
  });
});
