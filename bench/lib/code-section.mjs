/**
 * Production lines in `apps/` (issue 19 §5: fewer, not more): the lines of every non-test
 * `.ts`, `.tsx`, `.js` and `.mjs` file git tracks there (no declarations, nothing under a `test/`
 * or `e2e/` folder, no `*.test.*` or `*.spec.*`), as the working tree has them; the anchor is the
 * same count at the commit the issue was measured on (9a58e3f), read from git in the same run.
 */
import { spawnSync } from 'node:child_process';
import { num } from './format.mjs';
import { ratioGoal } from './sections.mjs';

/** The commit issue 19 measured ("today's 31.3k" in its table was counted some other way; this rule gives 28,060 there). */
const ISSUE_COMMIT = '9a58e3f';
const PRODUCTION = /\.(ts|tsx|js|mjs)$/;
const NOT_PRODUCTION = /\.d\.ts$|(^|\/)(test|tests|e2e)\/|\.(test|spec)\./;
/** Git's empty tree: a diff from it counts every line of every file as added. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The production files under apps/ and their lines, at `commit` or (none) in the working tree,
 * as `git diff --numstat` from the empty tree counts them; null when the clone lacks the commit.
 * @param {string} root @param {string} [commit]
 * @returns {{ files: number, lines: number } | null}
 */
function count(root, commit) {
  const diff = spawnSync('git', ['diff', '--numstat', EMPTY_TREE, ...(commit ? [commit] : []), '--', 'apps'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (diff.status !== 0) return null;
  const rows = diff.stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([, , file]) => file && PRODUCTION.test(file) && !NOT_PRODUCTION.test(file));
  return { files: rows.length, lines: rows.reduce((sum, [added]) => sum + Number(added), 0) };
}

/** @type {import('./sections.mjs').Section} */
export const codeSection = {
  name: 'code',
  title: 'Production lines in apps/ against the same count when issue 19 was measured',
  needs: 'alone',
  async run({ root }) {
    const now = count(root);
    if (!now) throw new Error('git diff --numstat failed in the repository');
    const then = count(root, ISSUE_COMMIT);
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
