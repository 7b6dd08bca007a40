/**
 * The console's privacy requests (issue 24 §2, ADR 066): how close each is to its legal deadline
 * (one month after it came in) decides how it is set off — overdue, due within a week, open, done.
 */
import { describe, expect, it } from 'vitest';
import { deadlineState } from '../app/components/privacy-requests.tsx';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const due = (days: number) => new Date(NOW + days * 86_400_000).toISOString();

describe('a privacy request’s deadline', () => {
  it('is overdue past its due date, near within 7 days, open before, and done once marked', () => {
    expect(deadlineState({ dueAt: due(-0.01), doneAt: null }, NOW)).toBe('overdue');
    expect(deadlineState({ dueAt: due(0.5), doneAt: null }, NOW)).toBe('near');
    expect(deadlineState({ dueAt: due(7), doneAt: null }, NOW)).toBe('near');
    expect(deadlineState({ dueAt: due(7.01), doneAt: null }, NOW)).toBe('open');
    expect(deadlineState({ dueAt: due(-3), doneAt: due(-4) }, NOW)).toBe('done');
  });
});
