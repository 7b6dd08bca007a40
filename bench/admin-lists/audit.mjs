/**
 * The audit log page (apps/web/app/routes/admin-audit.tsx, ADR 045): newest first, 50 a page, by
 * action, actor (exact) and target (exact), and a page deep in the log (cursor `a<seq base 36>`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webOperation } from '../lib/graphql.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const query = webOperation(root, 'auditLog');
const none = { action: null, actor: null, target: null, after: null };
/** Halfway down the log: the seeded entries are written in order, so their seq runs with g. */
const halfway = (/** @type {import('../lib/admin-lists-seed.mjs').Seed} */ seed) => `a${Math.floor(seed.counts.audit / 2).toString(36)}`;

/** @type {import('../admin-lists.mjs').AdminListCase[]} */
export const cases = [
  { label: 'audit: first page', query, variables: none },
  { label: 'audit: action=outbox.retried', query, variables: { ...none, action: 'outbox.retried' } },
  { label: 'audit: actor (exact)', query, variables: (seed) => ({ ...none, actor: seed.sample.auditActor }) },
  { label: 'audit: target (exact, a code)', query, variables: (seed) => ({ ...none, target: seed.sample.auditTarget }) },
  { label: 'audit: action and actor', query, variables: (seed) => ({ ...none, action: 'link.generated', actor: seed.sample.auditActor }) },
  { label: 'audit: a rare action (none seeded)', query, variables: { ...none, action: 'admin.security-policy-changed' } },
  { label: 'audit: a page halfway down', query, variables: (seed) => ({ ...none, after: halfway(seed) }) },
];
