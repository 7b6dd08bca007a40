import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as funnelOperations from '../app/lib/funnel-operations.ts';
import * as operations from '../app/lib/operations.ts';

const schema = buildSchema(readFileSync(new URL('../../api/schema.graphql', import.meta.url), 'utf8'));

describe('the web app’s GraphQL operations', () => {
  const documents = [...Object.values(operations), ...Object.values(funnelOperations)].filter(
    (value): value is { name: string; document: string } => typeof value === 'object' && value !== null && 'document' in value,
  );

  it('exist', () => {
    expect(documents.map((d) => d.name)).toEqual(expect.arrayContaining(['checkRegistrationCode', 'countryDetails', 'funnelReport']));
  });

  it.each(documents.map((d) => [d.name, d.document]))('%s is valid against the API schema', (_name, document) => {
    expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
  });
});
