/**
 * The data of the admin-list benchmark (bench/admin-lists.mjs), seeded with set-based SQL: one
 * `insert … select` per table over a generated series (generate_series on PostgreSQL, a recursive
 * CTE on SQLite), all in one transaction, then ANALYZE. At scale 1: 1,000,000 registrations
 * (members, each with a consent row), 100,000 codes, 200,000 waiting-list entries, 100,000
 * applicants, 500,000 outbox emails and 500,000 audit entries.
 *
 * Case files (bench/admin-lists/*.mjs) get a `Seed` (below) to build variables that hit rows that
 * exist, e.g. `variables: (seed) => ({ search: seed.sample.code })`. The shapes, for g = 1…count:
 *   founders      bench-f-g   founder-g@bench.example   first name one of FOUNDER_FIRST_NAMES (g % 10), last name `Bench g`
 *   members       bench-m-g   member-g@bench.example    first `Member`, last `g`; every 50th pending, the rest active;
 *                 registered on code bench-c-((g % codes) + 1); a consent row bench-k-g each
 *   codes         bench-c-g   code BENCHg               inviter founder ((g % founders) + 1); customization by g % 4
 *                 (default, social, viral, viralProductShare); every 5th has landing slug `slug-g`; by g % 10:
 *                 6 expired, 7 exhausted (balance 0), 8 quarantined, the rest valid
 *   waitlist      bench-w-g   wait-g@bench.example      language by g % 7; every 3rd invited
 *   applicants    bench-a-g   apply-g@bench.example     every 4th selected
 *   outbox        bench-o-g   by g % 100: 0–89 sent, 90–94 pending (due in 2030, so the worker leaves them), 95–98 failed, 99 sending
 *   audit log     by g % 6: admin.signed-in, link.generated (target BENCHg'), outbox.retried, feature.set,
 *                 admin.sign-in-failed, admin.role-changed; actor admin-(g % 20)@bench.example
 */

const FOUNDER_FIRST_NAMES = ['Anna', 'Julia', 'Marie', 'Lena', 'Sofia', 'Emma', 'Mila', 'Clara', 'Ida', 'Nora'];
const CUSTOMIZATIONS = ['default', 'social', 'viral', 'viralProductShare'];
const LANGUAGES = ['de', 'en', 'fr', 'it', 'nl', 'pl', 'sv'];
const AUDIT_ACTIONS = ['admin.signed-in', 'link.generated', 'outbox.retried', 'feature.set', 'admin.sign-in-failed', 'admin.role-changed'];

/**
 * @typedef {object} Seed
 * @property {number} scale
 * @property {{ members: number, codes: number, founders: number, waitlist: number, applications: number, outbox: number, audit: number }} counts
 * @property {{ memberEmail: string, code: string, codeId: string, inviterFirstName: string, inviterLastName: string, slug: string,
 *   waitlistEmail: string, applicationEmail: string, outboxId: string, auditActor: string, auditTarget: string }} sample
 *   rows in the middle of each table (never the newest: a search must not be answered by the first rows it reads)
 */

/**
 * @param {number} scale 1 = the issue's sizes
 * @returns {Seed}
 */
export function seedPlan(scale) {
  const n = (/** @type {number} */ full) => Math.max(10, Math.round(full * scale));
  const counts = {
    members: n(1_000_000),
    codes: n(100_000),
    founders: Math.min(1000, n(100_000)),
    waitlist: n(200_000),
    applications: n(100_000),
    outbox: n(500_000),
    audit: n(500_000),
  };
  const mid = (/** @type {number} */ count) => Math.max(1, Math.floor(count / 2));
  // A code of the valid kind (g % 10 = 0) with a slug (g % 5 = 0).
  const code = Math.max(10, mid(counts.codes) - (mid(counts.codes) % 10));
  const founder = (code % counts.founders) + 1;
  const failed = mid(counts.outbox) - (mid(counts.outbox) % 100) + 95;
  const linkTarget = mid(counts.audit) - (mid(counts.audit) % 6) + 1;
  return {
    scale,
    counts,
    sample: {
      memberEmail: `member-${mid(counts.members)}@bench.example`,
      code: `BENCH${code}`,
      codeId: `bench-c-${code}`,
      inviterFirstName: FOUNDER_FIRST_NAMES[founder % 10] ?? 'Anna',
      inviterLastName: `Bench ${founder}`,
      slug: `slug-${code}`,
      waitlistEmail: `wait-${mid(counts.waitlist)}@bench.example`,
      applicationEmail: `apply-${mid(counts.applications)}@bench.example`,
      outboxId: `bench-o-${failed}`,
      auditActor: `admin-${linkTarget % 20}@bench.example`,
      auditTarget: `BENCH${linkTarget % counts.codes}`,
    },
  };
}

/**
 * The statements, for 'sqlite' or 'postgres'.
 * @param {'sqlite' | 'postgres'} engine
 * @param {Seed} seed
 * @returns {string[]}
 */
export function seedStatements(engine, { counts }) {
  const pg = engine === 'postgres';
  const BASE = '2025-01-01T00:00:00Z';
  /** An insert of `count` rows; `g` runs from 1 to count. */
  const series = (/** @type {string} */ table, /** @type {string} */ columns, /** @type {string} */ select, /** @type {number} */ count) =>
    pg
      ? `insert into ${table} (${columns}) select ${select} from generate_series(1, ${count}) as s(g)`
      : `insert into ${table} (${columns}) with recursive s(g) as (select 1 union all select g + 1 from s where g < ${count}) select ${select} from s`;
  /** BASE plus `seconds`. */
  const ts = (/** @type {string} */ seconds) =>
    pg ? `(timestamptz '${BASE}' + (${seconds}) * interval '1 second')` : `strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01 00:00:00', '+' || (${seconds}) || ' seconds')`;
  const FUTURE = pg ? `timestamptz '2030-01-01T00:00:00Z'` : `'2030-01-01T00:00:00.000Z'`;
  const bool = (/** @type {string} */ condition) => (pg ? `(${condition})` : `(case when ${condition} then 1 else 0 end)`);
  const FALSE = pg ? 'false' : '0';
  const pick = (/** @type {string[]} */ values, /** @type {string} */ index) =>
    `(case ${values.map((v, i) => `when ${index} = ${i} then '${v}'`).join(' ')} end)`;
  const text = (/** @type {string} */ prefix, /** @type {string} */ expression) => (pg ? `'${prefix}' || (${expression})::text` : `'${prefix}' || (${expression})`);

  return [
    series(
      'members',
      'id, email, first_name, last_name, gender, country, language, status, registration_code_id, newsletter, created_at, activated_at',
      `${text('bench-f-', 'g')}, ${text('founder-', 'g')} || '@bench.example', ${pick(FOUNDER_FIRST_NAMES, 'g % 10')}, ${text('Bench ', 'g')}, 'female', 'DE', 'de', 'active', null, ${FALSE}, ${ts('g')}, ${ts('g + 60')}`,
      counts.founders,
    ),
    series(
      'registration_codes',
      'id, code, inviter_member_id, balance, expires_at, customization, landing_slug, requires_validity_timestamp, disabled, created_at, quarantined_at',
      `${text('bench-c-', 'g')}, ${text('BENCH', 'g')}, ${text('bench-f-', `(g % ${counts.founders}) + 1`)}, (case when g % 10 = 7 then 0 else 5 + g % 20 end),
       (case when g % 10 = 6 then ${ts('g * 10')} else ${FUTURE} end), ${pick(CUSTOMIZATIONS, 'g % 4')},
       (case when g % 5 = 0 then ${text('slug-', 'g')} else null end), ${FALSE}, ${FALSE}, ${ts('g * 10')},
       (case when g % 10 = 8 then ${ts('g * 10 + 5')} else null end)`,
      counts.codes,
    ),
    series(
      'members',
      'id, email, first_name, last_name, gender, country, language, status, registration_code_id, newsletter, created_at, activated_at',
      `${text('bench-m-', 'g')}, ${text('member-', 'g')} || '@bench.example', 'Member', ${text('', 'g')}, 'female', 'DE', ${pick(LANGUAGES, 'g % 7')},
       (case when g % 50 = 0 then 'pending' else 'active' end), ${text('bench-c-', `(g % ${counts.codes}) + 1`)}, ${bool('g % 2 = 0')}, ${ts('g * 2')},
       (case when g % 50 = 0 then null else ${ts('g * 2 + 60')} end)`,
      counts.members,
    ),
    series(
      'consents',
      'id, member_id, country, terms_pk_string, data_policy_pk_string, newsletter, accepted_at',
      `${text('bench-k-', 'g')}, ${text('bench-m-', 'g')}, 'DE', 'bench-terms', 'bench-data-policy', ${bool('g % 2 = 0')}, ${ts('g * 2')}`,
      counts.members,
    ),
    series(
      'waitlist_entries',
      'id, email, language, joined_at, consent_at, invited_at',
      `${text('bench-w-', 'g')}, ${text('wait-', 'g')} || '@bench.example', ${pick(LANGUAGES, 'g % 7')}, ${ts('g * 3')}, ${ts('g * 3')}, (case when g % 3 = 0 then ${ts('g * 3 + 3600')} else null end)`,
      counts.waitlist,
    ),
    series(
      'membership_applications',
      'id, email, language, country, consent_at, created_at, selected_at',
      `${text('bench-a-', 'g')}, ${text('apply-', 'g')} || '@bench.example', ${pick(LANGUAGES, 'g % 7')}, 'DE', ${ts('g * 5')}, ${ts('g * 5')}, (case when g % 4 = 0 then ${ts('g * 5 + 3600')} else null end)`,
      counts.applications,
    ),
    series(
      'email_outbox',
      'id, recipient, template, locale, payload, status, attempts, next_attempt_at, locked_until, last_error, created_at, sent_at',
      `${text('bench-o-', 'g')}, ${text('member-', 'g')} || '@bench.example', 'activation', 'de', '{}',
       (case when g % 100 < 90 then 'sent' when g % 100 < 95 then 'pending' when g % 100 < 99 then 'failed' else 'sending' end),
       (case when g % 100 < 90 then 1 when g % 100 < 95 then 3 when g % 100 < 99 then 10 else 1 end),
       (case when g % 100 < 90 then ${ts('g * 2')} else ${FUTURE} end), (case when g % 100 = 99 then ${FUTURE} else null end),
       (case when g % 100 >= 90 and g % 100 < 99 then 'Error: 550 mailbox unavailable for [address]' else null end), ${ts('g * 2')},
       (case when g % 100 < 90 then ${ts('g * 2 + 1')} else null end)`,
      counts.outbox,
    ),
    series(
      'audit_log',
      'id, at, actor_admin_id, actor_email, client_address, action, target, details',
      `${text('bench-l-', 'g')}, ${ts('g')}, null, ${text('admin-', 'g % 20')} || '@bench.example', '127.0.0.1', ${pick(AUDIT_ACTIONS, 'g % 6')},
       (case when g % 6 = 1 then ${text('BENCH', `g % ${counts.codes}`)} else ${text('target-', 'g % 1000')} end), '{}'`,
      counts.audit,
    ),
    // PostgreSQL: these tables only (a bare ANALYZE would visit every schema of the database).
    pg ? 'analyze members, registration_codes, consents, waitlist_entries, membership_applications, email_outbox, audit_log' : 'analyze',
  ];
}
