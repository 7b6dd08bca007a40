/** The flags and experiments page (apps/web/app/routes/admin-features.tsx): the features file and the database's overrides. ADR 049. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webOperation } from '../lib/graphql.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** @type {import('../admin-lists.mjs').AdminListCase[]} */
export const cases = [{ label: 'features: every flag and experiment in force', query: webOperation(root, 'adminFeatures', 'admin/admin-ops-operations.ts'), variables: {} }];
