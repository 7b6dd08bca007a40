/**
 * The invitations page (apps/web/app/routes/admin-codes.tsx, ADR 046): newest first, 50 a page,
 * by code (exact), inviter first name (exact, case-insensitive), customization, slug and state,
 * and a page deep in the list (the keyset cursor `<created_at>~<id>` in base64url); and one code's
 * page with its figures (apps/web/app/routes/admin-code.tsx).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webOperation } from '../lib/graphql.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const query = webOperation(root, 'adminCodes', 'admin/code-operations.ts');
const detail = webOperation(root, 'adminCode', 'admin/code-operations.ts');
const none = { code: null, inviter: null, customization: null, slug: null, state: null };
const page = (/** @type {Record<string, unknown>} */ filter, /** @type {string | null} */ after = null) => ({ filter: { ...none, ...filter }, after });
/** The cursor of a code halfway down the list (the seed writes codes g = 1…n, bench-c-g, created g * 10 s after its base). */
const halfway = (/** @type {import('../lib/admin-lists-seed.mjs').Seed} */ seed) => {
  const g = Math.floor(seed.counts.codes / 2);
  const createdAt = new Date(Date.parse('2025-01-01T00:00:00Z') + g * 10_000).toISOString();
  return Buffer.from(`${createdAt}~bench-c-${g}`).toString('base64url');
};

/** @type {import('../admin-lists.mjs').AdminListCase[]} */
export const cases = [
  { label: 'codes: first page', query, variables: page({}) },
  { label: 'codes: state=valid', query, variables: page({ state: 'VALID' }) },
  { label: 'codes: state=expired', query, variables: page({ state: 'EXPIRED' }) },
  { label: 'codes: state=exhausted', query, variables: page({ state: 'EXHAUSTED' }) },
  { label: 'codes: state=quarantined', query, variables: page({ state: 'QUARANTINED' }) },
  { label: 'codes: state=revoked (none seeded)', query, variables: page({ state: 'REVOKED' }) },
  { label: 'codes: code (exact)', query, variables: (seed) => page({ code: seed.sample.code.toLowerCase() }) },
  { label: 'codes: inviter (first name)', query, variables: (seed) => page({ inviter: seed.sample.inviterFirstName.toLowerCase() }) },
  { label: 'codes: inviter and state=valid', query, variables: (seed) => page({ inviter: seed.sample.inviterFirstName, state: 'VALID' }) },
  { label: 'codes: customization=viral, state=expired', query, variables: page({ customization: 'viral', state: 'EXPIRED' }) },
  { label: 'codes: slug (exact)', query, variables: (seed) => page({ slug: seed.sample.slug }) },
  { label: 'codes: an inviter nobody has', query, variables: page({ inviter: 'Nobody' }) },
  { label: 'codes: a page halfway down', query, variables: (seed) => page({}, halfway(seed)) },
  { label: "codes: one code's page (figures, funnel, 30 days)", query: detail, variables: (seed) => ({ code: seed.sample.code }) },
];
