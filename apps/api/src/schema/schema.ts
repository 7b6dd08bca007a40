/** Assembles the schema: importing a domain file registers its types on the builder. */
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import './admin.ts';
import './admin-codes.ts';
import './admin-console.ts';
import './admin-members.ts';
import './admin-waitlist.ts';
import './admin-ops.ts';
import './application-decisions.ts';
import './consent.ts';
import './country.ts';
import './funnel.ts';
import './member.ts';
import './membership-interest.ts';
import './own-data.ts';
import './proof-of-work.ts';
import './registration.ts';
import './registration-code.ts';
import './social-registration.ts';
import './waitlist.ts';
import './webhooks.ts';

export const schema: GraphQLSchema = builder.toSchema();

/** The committed SDL file, compared with the code by a test. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

/** The schema sorted by name, as written to SCHEMA_FILE. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
