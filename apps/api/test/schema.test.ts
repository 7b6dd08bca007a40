import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, printedSchema } from '../src/schema/schema.ts';

describe('schema.graphql', () => {
  it('is the schema printed from code (run `npm run print-schema -w @velvet/api` after changing it)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
  });

  it('holds the public contract the web app relies on', () => {
    const sdl = printedSchema();
    expect(sdl).toMatch(/registrationCodeDetails\([\s\S]*?\): RegistrationCodeDetails!/);
    expect(sdl).toMatch(/countryDetails: CountryDetails!/);
    expect(sdl).toMatch(/countryOptions: \[CountryOption!\]!/);
    expect(sdl).toMatch(/errorDetails: \[RegistrationCodeErrorDetail!\]!/);
    expect(sdl).toMatch(/errors: \[String!\]!/);
  });
});
