/**
 * The web's unit tests fail on an unexpected console.error or console.warn (issue 19): a
 * warning of React's (a missing key, an update outside act, a hydration mismatch) or a failure
 * our own code logs is a bug, unless the test says it expects it. Set up for every test file of
 * the web project (vitest.config.ts, `setupFiles`).
 *
 * - `expectConsole(level, pattern)` in a test: that test must log such a line (the opt-in is an
 *   assertion too), and the line is not printed.
 * - `printFigure(text)`: a figure a test reports on purpose (a timing, a memory peak); no warning.
 *
 * Output outside a test (a `beforeAll`, a server still closing) counts against the next test,
 * or fails the file after its last test.
 */
import { format } from 'node:util';
import { afterAll, afterEach } from 'vitest';

type Level = 'error' | 'warn';

interface Expected {
  level: Level;
  pattern: RegExp;
  seen: boolean;
}

const original = { error: console.error.bind(console), warn: console.warn.bind(console) };
let expected: Expected[] = [];
let unexpected: string[] = [];

function guarded(level: Level) {
  return (...args: unknown[]) => {
    const text = format(...args);
    const match = expected.find((entry) => entry.level === level && entry.pattern.test(text));
    if (match) {
      match.seen = true;
      return;
    }
    unexpected.push(`console.${level}: ${text}`);
    original[level](...args);
  };
}
console.error = guarded('error');
console.warn = guarded('warn');

/** This test logs a line of `level` that matches `pattern` (at least once); it is no failure. */
export function expectConsole(level: Level, pattern: RegExp): void {
  expected.push({ level, pattern, seen: false });
}

/** Prints a figure the test measured; it is not a warning. */
export function printFigure(text: string): void {
  original.warn(text);
}

/** Throws for the output this test did not expect, or expected and never got; starts afresh. */
export function checkConsole(): void {
  const found = unexpected;
  const missing = expected.filter((entry) => !entry.seen).map((entry) => `console.${entry.level} matching ${String(entry.pattern)}`);
  unexpected = [];
  expected = [];
  if (found.length > 0) {
    throw new Error(`Unexpected console output (fix its cause, or expectConsole() if the test means it):\n${found.join('\n')}`);
  }
  if (missing.length > 0) throw new Error(`Expected console output never came:\n${missing.join('\n')}`);
}

afterEach(checkConsole);
afterAll(checkConsole);
