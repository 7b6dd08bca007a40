/**
 * The first minute on a machine whose Node is too old (issue 23 §5, ADR 062): every command that
 * builds or runs starts with scripts/check-node.mjs, which stops with one line naming the version
 * needed and how to get it — under the old Node itself, which must be able to parse it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.ts';

const SCRIPT = 'scripts/check-node.mjs';
const { engines, scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
const needed = engines.node.replace(/^>=\s*/, '');

function check(node: string, env: Record<string, string> = {}) {
  const result = spawnSync(node, [SCRIPT], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, lines: result.stderr.split('\n').filter(Boolean) };
}

function expectRefusal(outcome: ReturnType<typeof check>, version: string) {
  expect(outcome.status).toBe(1);
  expect(outcome.stdout).toBe('');
  expect(outcome.lines).toHaveLength(1);
  expect(outcome.lines[0]).toContain(`needs Node ${needed} or newer (this is Node ${version})`);
  expect(outcome.lines[0]).toMatch(/install Node 24 LTS from https:\/\/nodejs\.org/);
}

describe('scripts/check-node.mjs', () => {
  it('answers the system’s own Node (Debian 12’s is 20): one line naming the version needed and how to get it, or nothing when it is new enough', () => {
    // Where the machine has no system Node, the same check runs on this one posing as Debian 12's.
    const systemNode = ['/usr/bin/node', '/usr/bin/nodejs'].find((file) => existsSync(file));
    const [node, env] = systemNode ? [systemNode, {}] : [process.execPath, { VELVET_NODE_VERSION_FOR_TEST: '20.19.2' }];
    const version = env.VELVET_NODE_VERSION_FOR_TEST ?? spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const [neededMajor = 0, neededMinor = 0] = needed.split('.').map(Number);
    if (major < neededMajor || (major === neededMajor && minor < neededMinor)) expectRefusal(check(node, env), version);
    else expect(check(node, env)).toEqual({ status: 0, stdout: '', lines: [] });
  });

  it('refuses a version just below the engines field, accepts it and newer ones, silently', () => {
    expectRefusal(check(process.execPath, { VELVET_NODE_VERSION_FOR_TEST: '20.19.2' }), '20.19.2');
    expectRefusal(check(process.execPath, { VELVET_NODE_VERSION_FOR_TEST: 'v22.21.9' }), '22.21.9');
    for (const version of [needed, '22.23.0', '24.0.0', process.versions.node]) {
      expect(check(process.execPath, { VELVET_NODE_VERSION_FOR_TEST: version })).toEqual({ status: 0, stdout: '', lines: [] });
    }
  });

  it('runs before anything builds or starts', () => {
    for (const name of ['start', 'start:prod', 'build', 'dev', 'migrate', 'test', 'validate']) {
      expect(scripts[name], name).toMatch(/^node scripts\/check-node\.mjs && /);
    }
  });
});
