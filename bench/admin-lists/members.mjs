/**
 * The member look-up (issue 13, ADR 048) as the web app sends it (apps/web/app/lib/admin/admin-members-operations.ts):
 * one exact address, never a list — every table is probed by an index on the address (members,
 * waiting list and applications are unique by address; `email_outbox_recipient_created_idx` and
 * `held_registrations_email_idx` from migration 0011), then the member's links and consents by
 * member id. The first case is an address nobody has: it takes every one of those probes and
 * must stay as fast with 1 million registrations as with ten. The second is written the way a
 * support agent pastes it (capitals, spaces): the same normalization, the same probes.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webOperation } from '../lib/graphql.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MEMBER_LOOKUP = webOperation(root, 'memberLookup', 'admin/admin-members-operations.ts');

/** @type {import('../admin-lists.mjs').AdminListCase[]} */
export const cases = [
  { label: 'members: look-up of an unknown address (every table probed)', query: MEMBER_LOOKUP, variables: { email: 'nobody-at-all@bench.invalid' } },
  { label: 'members: look-up as pasted (capitals, spaces)', query: MEMBER_LOOKUP, variables: { email: '  Someone.Else+Tag@Example.COM ' } },
  // A member in the middle of the million, with their code, links, consent and emails.
  { label: 'members: look-up of a registered member', query: MEMBER_LOOKUP, variables: (seed) => ({ email: seed.sample.memberEmail }) },
];
