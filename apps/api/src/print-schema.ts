/** Writes apps/api/schema.graphql from the code-first schema (`npm run print-schema`). */
import { writeFileSync } from 'node:fs';
import { SCHEMA_FILE, printedSchema } from './schema/schema.ts';

writeFileSync(SCHEMA_FILE, printedSchema());
console.warn(`wrote ${SCHEMA_FILE}`);
