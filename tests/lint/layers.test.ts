/**
 * The layer directions of docs/architecture.md are ESLint rules (ADR 032): each fixture below
 * is linted with the repository's own eslint.config.js as if it were the file named, and an
 * import against the layers must be reported, while the allowed direction must not be.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });

/** The messages of the layer rule for `code` placed at `file` (relative to the repository). */
async function layerViolations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

/** The messages of the cycle rule for `code` placed at `file`. */
async function cycles(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => m.message);
}

describe('import cycles', () => {
  // tests/lint/fixtures: cycle-two.ts imports cycle-one.ts, which imports nothing on disk.
  it('an import that closes a cycle is reported, static or dynamic', async () => {
    expect(await cycles('tests/lint/fixtures/cycle-one.ts', "import { two } from './cycle-two.ts';\nexport const one = two - 1;\n")).toEqual([
      'Dependency cycle detected',
    ]);
    expect(await cycles('tests/lint/fixtures/cycle-one.ts', "export const one = 1;\nexport const later = () => import('./cycle-two.ts');\n")).toEqual([
      'Dependency cycle detected',
    ]);
  });

  it('a type-only import back is no cycle, and neither is the file as it is', async () => {
    expect(await cycles('tests/lint/fixtures/cycle-one.ts', "import type { two } from './cycle-two.ts';\nexport const one: typeof two = 1;\n")).toEqual([]);
    expect(await cycles('tests/lint/fixtures/cycle-two.ts', "import { one } from './cycle-one.ts';\n\nexport const two = one + 1;\n")).toEqual([]);
  });
});

describe('layer rules', () => {
  it('packages never import apps (by package name or by relative path)', async () => {
    expect(await layerViolations('packages/validation/src/fixture.ts', "export * from '@velvet/api/services/register-member';\n")).toEqual([
      expect.stringContaining('Packages never import apps'),
    ]);
    expect(await layerViolations('packages/i18n/src/fixture.ts', "export { LANDING_VARIANTS } from '../../../apps/web/app/lib/landing/landing-variants.ts';\n")).toEqual([
      expect.stringContaining('Packages never import apps'),
    ]);
    // The allowed direction: a package importing a package.
    expect(await layerViolations('packages/tokens/src/fixture.ts', "export * from '@velvet/validation/registration';\n")).toEqual([]);
  });

  it('packages import only the packages docs/architecture.md names: tokens builds on validation, the others on none', async () => {
    expect(await layerViolations('packages/tokens/src/fixture.ts', "export * from '@velvet/i18n/locales';\n")).toEqual([
      expect.stringContaining('packages/tokens imports only validation'),
    ]);
    expect(await layerViolations('packages/validation/src/fixture.ts', "export * from '@velvet/tokens/signed-token';\n")).toEqual([
      expect.stringContaining('packages/validation imports none of our other packages'),
    ]);
    expect(await layerViolations('packages/i18n/src/fixture.ts', "export * from '../../validation/src/registration.ts';\n")).toEqual([
      expect.stringContaining('packages/i18n imports none of our other packages'),
    ]);
    // Its own modules, third-party packages, and a package's tests are free.
    expect(await layerViolations('packages/validation/src/fixture.ts', "export * from './registration.ts';\nexport { z } from 'zod';\n")).toEqual([]);
    expect(await layerViolations('packages/validation/test/fixture.test.ts', "export * from '@velvet/i18n/catalogs';\n")).toEqual([]);
  });

  it('services/ and what it builds on never import the transport (schema/, http/)', async () => {
    for (const layer of ['services', 'services/registration', 'domain', 'db', 'mail', 'lib', 'auth', 'jobs']) {
      const up = layer.includes('/') ? '../../' : '../';
      expect(await layerViolations(`apps/api/src/${layer}/fixture.ts`, `export * from '${up}schema/user-errors.ts';\n`), layer).toEqual([
        expect.stringContaining('never import the transport'),
      ]);
      expect(await layerViolations(`apps/api/src/${layer}/fixture.ts`, `export * from '${up}http/request-meta.ts';\n`), layer).toEqual([
        expect.stringContaining('never import the transport'),
      ]);
    }
    // The allowed direction: the schema calls use cases.
    expect(await layerViolations('apps/api/src/schema/fixture.ts', "export * from '../services/detect-country.ts';\n")).toEqual([]);
  });

  it('db/, mail/, lib/, domain/ and auth/ never import use cases; services/ may import db/ and domain/', async () => {
    const useCase = "export * from '../services/check-registration-code.ts';\n";
    expect(await layerViolations('apps/api/src/db/fixture.ts', useCase)).toEqual([expect.stringContaining('never import use cases')]);
    expect(await layerViolations('apps/api/src/mail/fixture.ts', useCase)).toEqual([expect.stringContaining('never import use cases')]);
    for (const layer of ['lib', 'domain', 'auth']) {
      expect(await layerViolations(`apps/api/src/${layer}/fixture.ts`, useCase)).toEqual([expect.stringContaining('never import use cases')]);
    }
    expect(await layerViolations('apps/api/src/services/fixture.ts', "export type * from '../domain/invitation-places.ts';\n")).toEqual([]);
    expect(await layerViolations('apps/api/src/services/fixture.ts', "export type * from '../db/connect.ts';\n")).toEqual([]);
  });

  it('db/schema.ts imports nothing of the apps (table types only; column types may come from packages)', async () => {
    expect(await layerViolations('apps/api/src/db/schema.ts', "import type { Env } from '../config.ts';\nexport type E = Env;\n")).toEqual([
      expect.stringContaining('table types only'),
    ]);
    expect(await layerViolations('apps/api/src/db/schema.ts', "import type { Customization } from '@velvet/validation/customization';\nexport type C = Customization;\n")).toEqual([]);
  });

  it("the web app and the API never import each other's code", async () => {
    expect(await layerViolations('apps/web/app/lib/fixture.ts', "export * from '@velvet/api/services/register-member';\n")).toEqual([
      expect.stringContaining('GraphQL only'),
    ]);
    expect(await layerViolations('apps/api/src/services/fixture.ts', "export * from '../../../web/app/lib/page/route-middleware.ts';\n")).toEqual([
      expect.stringContaining('never imports the web app'),
    ]);
  });

  it('client code never imports *.server.ts; route modules and server modules may', async () => {
    const serverOnly = "export * from '../lib/api/api.server.ts';\n";
    expect(await layerViolations('apps/web/app/components/fixture.tsx', serverOnly)).toEqual([expect.stringContaining('Client code never imports *.server.ts')]);
    expect(await layerViolations('apps/web/app/lib/api/fixture.ts', "export * from './api.server.ts';\n")).toEqual([
      expect.stringContaining('Client code never imports *.server.ts'),
    ]);
    expect(await layerViolations('apps/web/app/routes/fixture.tsx', serverOnly)).toEqual([]);
    expect(await layerViolations('apps/web/app/lib/api/fixture.server.ts', "export * from './api.server.ts';\n")).toEqual([]);
  });

  it('app/ never imports the Express server', async () => {
    expect(await layerViolations('apps/web/app/routes/fixture.tsx', "export { MAX_BODY_BYTES } from '../../server/app.ts';\n")).toEqual([
      expect.stringContaining('never imports the Express server'),
    ]);
  });
});
