/**
 * Production lines in `apps/` (issue 19 §5: fewer, not more): the lines of every non-test
 * `.ts`, `.tsx`, `.js` and `.mjs` file git tracks there (no declarations, nothing under a `test/`
 * or `e2e/` folder, no `*.test.*` or `*.spec.*`), as the working tree has them; the anchor is the
 * same count at the commit the issue was measured on (9a58e3f), read from git in the same run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { num } from './format.mjs';
import { ratioGoal } from './sections.mjs';

/** The commit issue 19 measured ("today's 31.3k" in its table was counted some other way; this rule gives 28,060 there). */
const ISSUE_COMMIT = '9a58e3f';
const PRODUCTION = /\.(ts|tsx|js|mjs)$/;
const NOT_PRODUCTION = /\.d\.ts$|(^|\/)(test|tests|e2e)\/|\.(test|spec)\./;

/** @param {string} root @param {string[]} args */
const git = (root, args, input) => spawnSync('git', args, { cwd: root, encoding: 'utf8', input, maxBuffer: 256 * 1024 * 1024 });

/** @param {string} list git's `-z` file list @returns {string[]} */
const production = (list) => list.split('\0').filter((file) => PRODUCTION.test(file) && !NOT_PRODUCTION.test(file));

/** @param {string} text */
const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** @param {string} root */
function countWorkingTree(root) {
  const files = production(git(root, ['ls-files', '-z', '--', 'apps']).stdout);
  return { files: files.length, lines: files.reduce((sum, file) => sum + lineCount(readFileSync(path.join(root, file), 'utf8')), 0) };
}

/** @param {string} root @returns {{ files: number, lines: number } | null} null when the clone lacks the commit */
function countAtCommit(root) {
  const tree = git(root, ['ls-tree', '-r', '-z', '--name-only', ISSUE_COMMIT, '--', 'apps']);
  if (tree.status !== 0) return null;
  const files = production(tree.stdout);
  const blobs = git(root, ['cat-file', '--batch'], files.map((file) => `${ISSUE_COMMIT}:${file}`).join('\n') + '\n');
  if (blobs.status !== 0) return null;
  // --batch: a header line "<sha> blob <size>", then the contents, then a newline, for each file.
  let lines = 0;
  let at = 0;
  const out = Buffer.from(blobs.stdout, 'utf8');
  while (at < out.length) {
    const headerEnd = out.indexOf(10, at);
    const size = Number(out.subarray(at, headerEnd).toString('utf8').split(' ')[2]);
    lines += lineCount(out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
    at = headerEnd + 1 + size + 1;
  }
  return { files: files.length, lines };
}

/** @type {import('./sections.mjs').Section} */
export const codeSection = {
  name: 'code',
  title: 'Production lines in apps/ against the same count when issue 19 was measured',
  needs: 'alone',
  async run({ root }) {
    const now = countWorkingTree(root);
    const then = countAtCommit(root);
    const ratio = then ? now.lines / then.lines : undefined;
    return {
      figures: [
        {
          id: 'code.lines',
          label: 'production lines in apps/',
          measured: `${num(now.lines)} in ${num(now.files)} files`,
          anchor: then ? `${num(then.lines)} in ${num(then.files)} files at ${ISSUE_COMMIT}` : `not in this clone (${ISSUE_COMMIT})`,
          ratio,
          goal: ratioGoal(ratio, 1, { atMost: true, text: 'fewer' }),
        },
      ],
      lines: [
        `  ${num(now.lines)} lines in ${num(now.files)} files now; ${then ? `${num(then.lines)} in ${num(then.files)} at ${ISSUE_COMMIT}` : `${ISSUE_COMMIT} is not in this clone (a shallow one?)`}.`,
        '  Non-test .ts, .tsx, .js and .mjs files git tracks under apps/, no declarations.',
      ],
      data: { now, then, commit: ISSUE_COMMIT },
    };
  },
};
