import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, Kind, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as funnelOperations from '../app/lib/admin/funnel-operations.ts';
import * as operations from '../app/lib/api/operations.ts';

const webRoot = new URL('..', import.meta.url);
const schema = buildSchema(readFileSync(new URL('../../api/schema.graphql', import.meta.url), 'utf8'));

describe('the web app’s GraphQL operations', () => {
  const documents = [...Object.values(operations), ...Object.values(funnelOperations)].filter(
    (value): value is { name: string; document: string } => typeof value === 'object' && value !== null && 'document' in value,
  );

  it('exist', () => {
    expect(documents.map((d) => d.name)).toEqual(
      expect.arrayContaining(['checkRegistrationCode', 'countryDetails', 'funnelReport', 'registrationStatus']),
    );
  });

  it.each(documents.map((d) => [d.name, d.document]))('%s is valid against the API schema and sent under its own name', (name, document) => {
    const parsed = parse(document);
    expect(validate(schema, parsed).map((e) => e.message)).toEqual([]);
    const [definition] = parsed.definitions;
    expect(definition?.kind === Kind.OPERATION_DEFINITION ? definition.name?.value : undefined).toBe(name);
  });

  // The types gql.tada infers come from graphql-env.d.ts (ADR 033): it must be what the schema gives today.
  it('are typed from the current schema (graphql-env.d.ts is regenerated from apps/api/schema.graphql)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'velvet-gql-env-'));
    try {
      const output = join(dir, 'graphql-env.d.ts');
      execFileSync(fileURLToPath(new URL('../../node_modules/.bin/gql-tada', webRoot)), ['generate-output', '--output', output], {
        cwd: webRoot,
        stdio: 'pipe',
      });
      const committed = readFileSync(new URL('app/lib/api/graphql-env.d.ts', webRoot), 'utf8');
      expect(committed, 'run `npm run generate:graphql --workspace @velvet/web` and commit the result').toBe(readFileSync(output, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
