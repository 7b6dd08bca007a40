import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/build/**', '**/dist/**', '**/.react-router/**', 'data/**', 'test-results/**', 'playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/app/**/*.tsx', 'apps/web/app/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  ...layerRules(import.meta.dirname),
  {
    files: ['scripts/**', 'bench/**', '**/cli.ts', 'apps/api/src/cli/**', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
);

/**
 * The layer directions of docs/architecture.md, enforced (ADR 032): an import against them
 * fails `npm run lint`. Paths are resolved (relative imports and workspace packages alike),
 * so `@velvet/api/…` and `../../apps/api/…` are the same violation.
 * `basePath`: the repository root, so tests/lint can lint a fixture from anywhere.
 */
export function layerRules(basePath) {
  const plugin = { 'import-x': importX };
  const settings = {
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    // Modules import-x reads to follow imports (no-cycle): ours are TypeScript.
    'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  };
  const zones = (list) => ['error', { basePath, zones: list }];
  // Our packages each package's `src/` may import (docs/architecture.md): tokens builds on
  // validation's field schemas; every other package stands alone. Tests may use any package.
  const packageImports = {
    config: [],
    'error-reporting': [],
    features: [],
    i18n: [],
    tokens: ['validation'],
    validation: [],
  };
  const layers = [
    {
      target: './packages',
      from: './apps',
      message: 'Packages never import apps: apps depend on packages, never the reverse (docs/architecture.md).',
    },
    ...Object.entries(packageImports).map(([name, allowed]) => ({
      target: `./packages/${name}/src`,
      from: './packages',
      except: [`./${name}`, ...allowed.map((other) => `./${other}`)],
      message: `packages/${name} imports ${allowed.length > 0 ? `only ${allowed.join(', ')} of our packages` : 'none of our other packages'} (docs/architecture.md).`,
    })),
    {
      target: ['./apps/api/src/services', './apps/api/src/domain', './apps/api/src/db', './apps/api/src/mail', './apps/api/src/lib', './apps/api/src/auth', './apps/api/src/jobs'],
      from: ['./apps/api/src/schema', './apps/api/src/http'],
      message: 'Use cases and what they build on never import the transport (schema/, http/): GraphQL and HTTP call them, not the reverse.',
    },
    {
      target: ['./apps/api/src/db', './apps/api/src/mail', './apps/api/src/lib', './apps/api/src/domain', './apps/api/src/auth'],
      from: './apps/api/src/services',
      message: 'db/, mail/, lib/, domain/ and auth/ never import use cases (services/): use cases call them, not the reverse.',
    },
    {
      // Column types may name the shared vocabulary (@velvet/validation: customizations,
      // shopping preferences); nothing of the apps.
      target: './apps/api/src/db/schema.ts',
      from: './apps',
      message: 'db/schema.ts holds the table types only: it imports nothing of the apps (column types may come from packages/).',
    },
    {
      target: ['./apps/web/app', './apps/web/server', './apps/web/cmp'],
      from: './apps/api',
      message: 'The web app talks to the API over GraphQL only: it never imports the API\'s code.',
    },
    {
      target: './apps/api/src',
      from: './apps/web',
      message: 'The API never imports the web app.',
    },
    {
      target: './apps/web/app',
      from: './apps/web/server',
      message: 'app/ is bundled for the browser: it never imports the Express server (server/).',
    },
  ];
  return [
    {
      files: ['**/*.{ts,tsx,js,mjs}'],
      plugins: plugin,
      settings,
      rules: {
        'import-x/no-restricted-paths': zones(layers),
        // No import cycles (issue 19): a module that needs its importer's code shares a third
        // module with it instead. Dynamic imports count (a lazily loaded chunk importing its
        // loader is still a cycle); type-only imports do not. Third-party packages are not
        // followed (`ignoreExternal`): no cycle of ours passes through them, and reading them
        // would add as much lint time again as the rule itself takes.
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
      },
    },
    {
      // Client code: everything under app/ that is neither server-only nor a route module (route
      // modules may import *.server.ts for their loaders and actions; React Router strips those
      // from the browser bundle). Components, layouts and client libraries never may.
      files: ['apps/web/app/components/**', 'apps/web/app/layouts/**', 'apps/web/app/lib/**', 'apps/web/cmp/**'],
      ignores: ['**/*.server.ts', '**/*.server.tsx'],
      plugins: plugin,
      settings,
      rules: {
        // The same layers, and one more (a later block's rule options replace an earlier one's).
        'import-x/no-restricted-paths': zones([
          ...layers,
          {
            target: ['./apps/web/app', './apps/web/cmp'],
            from: ['./apps/web/app/**/*.server.ts', './apps/web/app/**/*.server.tsx'],
            message: 'Client code never imports *.server.ts: server-only modules stay out of the browser bundle.',
          },
        ]),
      },
    },
  ];
}
