/** The console guard of the web's unit tests (test/support/console-guard.ts) catches React's warnings and our own. */
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { checkConsole, expectConsole } from './support/console-guard.ts';

describe('the console guard', () => {
  it("catches React's own warnings: a list without keys", () => {
    expectConsole('error', /unique "key" prop/);
    renderToString(<ul>{[<li>one</li>, <li>two</li>]}</ul>);
  });

  it('fails on output the test did not expect, and on expected output that never came', () => {
    console.warn('the console guard test: a warning nobody expected');
    expect(() => checkConsole()).toThrow(/Unexpected console output[\s\S]*a warning nobody expected/);
    expectConsole('error', /never logged/);
    expect(() => checkConsole()).toThrow(/Expected console output never came:\nconsole\.error matching \/never logged\//);
  });
});
