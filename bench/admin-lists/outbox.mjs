/**
 * The outbox page (apps/web/app/routes/admin-outbox.tsx): newest first, 50 a page, by status,
 * and a page deep in the list (keyset cursor). ADR 049.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webOperation } from '../lib/graphql.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const query = webOperation(root, 'adminOutbox', 'admin/admin-ops-operations.ts');

/** The page's cursor after the seeded email bench-o-g (created_at = 2025-01-01 + 2g s; bench/lib/admin-lists-seed.mjs). */
const cursorAfter = (/** @type {string} */ id) => {
  const g = Number(id.replace('bench-o-', ''));
  return Buffer.from(`${new Date(Date.parse('2025-01-01T00:00:00Z') + g * 2000).toISOString()}|${id}`, 'utf8').toString('base64url');
};

/** @type {import('../admin-lists.mjs').AdminListCase[]} */
export const cases = [
  { label: 'outbox: first page, every status', query, variables: {} },
  { label: 'outbox: first page, status=failed', query, variables: { status: 'FAILED' } },
  { label: 'outbox: first page, status=pending', query, variables: { status: 'PENDING' } },
  { label: 'outbox: a page halfway down, status=failed', query, variables: (seed) => ({ status: 'FAILED', after: cursorAfter(seed.sample.outboxId) }) },
  { label: 'outbox: a page halfway down, every status', query, variables: (seed) => ({ after: cursorAfter(seed.sample.outboxId) }) },
];
