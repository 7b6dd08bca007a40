/**
 * `register` throughput, each request a new address (a pending member, their consent, an
 * activation link and the activation email in the outbox, in one transaction that locks the
 * code's row), 20 connections, on one campaign code with room for every registration of the
 * run: the hot row every registration locks is the hardest case for the database. On SQLite
 * (the product as `npm start` runs it) and on PostgreSQL (the API alone, on a schema of its own
 * in the test database). Issue 11: ≥ 500 registrations/s with p99 ≤ 100 ms on SQLite, ≥ 300/s on
 * PostgreSQL. There is no anchor: the goals are absolute.
 *
 * After each run the database is asked how many members the code got, how many of them have an
 * activation link, how many links they have and how many activation emails were queued: every
 * member must have a link, and every link its email (the email is part of the registration's
 * transaction). A link more than members happens when the load generator sends a request twice
 * (the second answer is ACCOUNT_PENDING, with the email sent again).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { num } from './format.mjs';
import { JSON_HEADERS, graphqlBody, postGraphql, webOperation } from './graphql.mjs';
import { pathWithThisNode, startApi } from './product.mjs';
import { anyFailed, loadTable, throughput } from './sections.mjs';

/** The most a code can grant (the CLI's limit): far more than a run registers. */
const CAMPAIGN_BALANCE = 1_000_000;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * @typedef {object} Counts
 * @property {number} members   members registered on the code
 * @property {number} linked    of them, those with an activation link
 * @property {number} links     their activation links
 * @property {number} emails    activation emails queued since the code was created
 */

/**
 * The four counts in one statement, so that they come from one snapshot: registrations still in
 * flight when the load run ends commit meanwhile ($1: the code's id, $2: when it was created).
 */
const COUNTS_SQL = `select
  (select count(*) from members where registration_code_id = $1) as member_count,
  (select count(distinct a.member_id) from activations a join members m on m.id = a.member_id where m.registration_code_id = $1) as linked_count,
  (select count(*) from activations a join members m on m.id = a.member_id where m.registration_code_id = $1) as link_count,
  (select count(*) from email_outbox where template = 'activation' and created_at >= $2) as email_count`;
/** @param {Record<string, unknown>} row @returns {Counts} */
const countsOf = (row) => ({ members: Number(row.member_count), linked: Number(row.linked_count), links: Number(row.link_count), emails: Number(row.email_count) });
/**
 * What a `register` answer says: its outcome (FORM_FINISHED, …; `null` with user errors), else the
 * code of its GraphQL error (RATE_LIMITED, OVERLOADED, SERVICE_UNAVAILABLE), else 'other'.
 * @param {string} text the response body
 */
export const outcomeOf = (text) => /"outcome":"?(\w+)"?/.exec(text)?.[1] ?? /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? 'other';
/** @param {Counts} c */
const consistent = (c) => c.members === c.linked && c.links === c.emails;

/**
 * Creates the campaign code with the admin CLI, on the same database and secret as the API.
 * @param {string} root
 * @param {Record<string, string>} env
 * @returns {{ id: string, code: string, createdAt: string }}
 */
export function createCampaignCode(root, env) {
  const code = `BENCH-${randomBytes(4).toString('hex').toUpperCase()}`;
  const createdAt = new Date().toISOString();
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'apps/api/dist/cli.js'), 'code', 'create', '--inviter', 'Bench', '--balance', String(CAMPAIGN_BALANCE), '--code', code, '--json'],
    { cwd: root, env: { ...env, PATH: pathWithThisNode() }, encoding: 'utf8', timeout: 60_000 },
  );
  if (result.status !== 0) throw new Error(`code create failed (exit ${result.status ?? result.signal}): ${result.stderr.slice(-1000)}`);
  return { id: JSON.parse(result.stdout).id, code, createdAt };
}

/**
 * The web app's `register` request for `code` (its first country, Germany when offered), as a
 * function of the address: the body of one registration.
 * @param {string} root
 * @param {string} apiUrl the API's /graphql
 * @param {string} code
 * @returns {Promise<(email: string) => string>}
 */
export async function registrationForm(root, apiUrl, code) {
  const details = await postGraphql(apiUrl, graphqlBody('checkRegistrationCode', webOperation(root, 'checkRegistrationCode'), { registrationCode: code }));
  const options = /** @type {{ isoCode: string, termsPkString: string, dataPolicyPkString: string }[]} */ (details.json.data?.registrationCodeDetails.countryOptions ?? []);
  const country = options.find((o) => o.isoCode === 'DE') ?? options[0];
  if (!country) throw new Error(`the campaign code offers no country: ${details.text.slice(0, 300)}`);
  const mutation = webOperation(root, 'register');
  return (email) =>
    graphqlBody('register', mutation, {
      input: {
        registrationCode: code,
        email,
        gender: 'FEMALE',
        firstName: 'Beatrice',
        lastName: 'Bench',
        country: country.isoCode,
        newsletter: false,
        termsAccepted: true,
        termsPkString: country.termsPkString,
        dataPolicyPkString: country.dataPolicyPkString,
        language: 'de',
        flow: 'DEFAULT',
      },
    });
}

/**
 * Registers new addresses on a fresh campaign code of `api` under load, then counts what was written.
 * @param {import('./sections.mjs').SectionContext} context
 * @param {import('./product.mjs').Product} api
 * @param {string} label
 * @param {(codeId: string, since: string) => Promise<Counts>} count
 */
export async function measureRegistrations({ root, settings, measure }, api, label, count) {
  const campaign = createCampaignCode(root, api.env);
  const apiUrl = `${api.apiUrl}/graphql`;
  const form = await registrationForm(root, apiUrl, campaign.code);
  const run = randomBytes(3).toString('hex');
  let sent = 0;
  const makeBody = () => form(`bench-${run}-${sent++}@example.com`);
  /** @type {Record<string, number>} */
  const outcomes = {};
  const result = await measure(label, {
    url: apiUrl,
    method: 'POST',
    headers: JSON_HEADERS,
    makeBody,
    connections: settings.registerConnections,
    duration: settings.duration,
    cpu: api.cpu,
    onResponse(status, text) {
      const key = status === 200 ? outcomeOf(text) : `HTTP ${status}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    },
  });
  const counts = await count(campaign.id, campaign.createdAt);
  const others = Object.keys(outcomes).filter((outcome) => outcome !== 'FORM_FINISHED');
  return { result, outcomes, counts, sent, suspect: anyFailed(result) || others.length > 0 || !consistent(counts) };
}

/**
 * The figure and report lines of one engine's run.
 * @param {string} engine
 * @param {Awaited<ReturnType<typeof measureRegistrations>>} measured
 * @param {{ perSecond: number, p99?: number }} goal
 * @returns {import('./sections.mjs').SectionResult}
 */
export function registerResult(engine, { result, outcomes, counts, sent, suspect }, goal) {
  const met = result.requestsPerSecond >= goal.perSecond && (goal.p99 === undefined || result.p99 <= goal.p99);
  return {
    figures: [
      {
        id: `register.${engine}`,
        label: `register on ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${result.connections} conns`,
        measured: throughput(result),
        goal: { text: `≥ ${goal.perSecond}/s${goal.p99 === undefined ? '' : `, p99 ≤ ${goal.p99} ms`}`, met },
      },
    ],
    lines: [
      ...loadTable([[`register (${engine}), a new address each`, result]]),
      '',
      `  Outcomes: ${Object.entries(outcomes).map(([k, v]) => `${k} ${num(v)}`).join(', ')}. Requests sent (with warm-up): ${num(sent)}.`,
      `  In the database: ${num(counts.members)} members on the code, ${num(counts.linked)} with an activation link; ${num(counts.links)} links, ${num(counts.emails)} activation emails queued${consistent(counts) ? ' (every member a link, every link its email)' : ' ← NOT every member a link and every link its email'}.`,
    ],
    data: { result, outcomes, counts, sent },
    suspect,
  };
}

/** @type {import('./sections.mjs').Section} */
export const registerSqliteSection = {
  name: 'register-sqlite',
  title: 'register on SQLite (the product as npm start runs it)',
  needs: 'product',
  async run(context) {
    const { product } = context;
    if (!product) throw new Error('the register-sqlite section needs the product');
    const count = async (/** @type {string} */ codeId, /** @type {string} */ since) => {
      const db = new Database(path.join(product.dataDir, 'velvet.sqlite'), { readonly: true, fileMustExist: true });
      try {
        return countsOf(/** @type {Record<string, unknown>} */ (db.prepare(COUNTS_SQL.replaceAll('$1', '@code').replaceAll('$2', '@since')).get({ code: codeId, since })));
      } finally {
        db.close();
      }
    };
    return registerResult('sqlite', await measureRegistrations(context, product, 'register on SQLite', count), { perSecond: 500, p99: 100 });
  },
};

/**
 * @typedef {object} PostgresApi
 * @property {import('./product.mjs').Product} api the API alone on a schema of its own
 * @property {pg.Client} admin a connection of the benchmark's own to the same database
 * @property {string} schema the schema's name (prefix table names with it in `admin`'s SQL)
 * @property {(codeId: string, since: string) => Promise<Counts>} count the counts of a campaign code
 */

/**
 * Runs `measure` against the API alone (the production build) on a schema of its own in the
 * PostgreSQL of BENCH_DATABASE_URL, created here and dropped afterwards (also on failure or
 * Ctrl-C); `unreachable` answers when there is no server to measure.
 * @param {import('./sections.mjs').SectionContext} context
 * @param {{ env?: Record<string, string>, unreachable: (reason: string) => import('./sections.mjs').SectionResult }} options
 * @param {(postgres: PostgresApi) => Promise<import('./sections.mjs').SectionResult>} measure
 * @returns {Promise<import('./sections.mjs').SectionResult>}
 */
export async function onPostgresApi(context, { env = {}, unreachable }, measure) {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    return unreachable(`PostgreSQL is not reachable at ${POSTGRES_URL} (${String(error).split('\n')[0]}): set BENCH_DATABASE_URL.`);
  }
  const schema = `velvet_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dropSchema = () => admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
  const forgetSchema = context.onCleanup(() => dropSchema().then(() => admin.end()));
  /** @type {import('./product.mjs').Product | undefined} */
  let api;
  try {
    await admin.query(`create schema ${schema}`);
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    api = await startApi(context.root, {
      apiPort: context.ports.apiAlone,
      env: { ...env, DATABASE_URL: url.href },
      onSpawn: (started) => context.onCleanup(() => started.stop()),
    });
    const count = async (/** @type {string} */ codeId, /** @type {string} */ since) => {
      const sqlText = COUNTS_SQL.replace(/\b(members|activations|email_outbox)\b/g, `${schema}.$1`);
      return countsOf((await admin.query(sqlText, [codeId, since])).rows[0]);
    };
    return await measure({ api, admin, schema, count });
  } catch (error) {
    const tail = api?.logTail().trim();
    if (tail) console.error(`\nLast output of the API on PostgreSQL:\n${tail.slice(-4000)}\n`);
    throw error;
  } finally {
    await api?.stop();
    await dropSchema();
    await admin.end();
    forgetSchema();
  }
}

/** @type {import('./sections.mjs').Section} */
export const registerPostgresSection = {
  name: 'register-postgres',
  title: `register on PostgreSQL (the API alone, a schema of its own in ${POSTGRES_URL.replace(/\/\/[^@/]*@/, '//')})`,
  needs: 'alone',
  run: (context) =>
    onPostgresApi(
      context,
      {
        unreachable: (reason) => ({
          figures: [{ id: 'register.postgres', label: 'register on PostgreSQL', measured: 'not measured', goal: { text: '≥ 300/s', met: null } }],
          lines: [`  ${reason}`],
        }),
      },
      async ({ api, count }) => registerResult('postgres', await measureRegistrations(context, api, 'register on PostgreSQL', count), { perSecond: 300 }),
    ),
};
