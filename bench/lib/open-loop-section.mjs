/**
 * `register` offered at fixed rates on PostgreSQL — an open loop, as visitors arrive (issue 18,
 * ADR 052) — beside the closed-loop maximum of the same API process: 20 connections that each
 * send again as soon as they are answered (the register-postgres figure).
 *
 * At each rate (50, 100 and 200 a second, a few seconds each) every request is a new address on a
 * campaign code of its own. Beyond what the API can take, it must shed: answer OVERLOADED at once
 * ("busy, try again in a moment") instead of letting every request wait seconds for a database
 * connection. The section reports what was accepted per second, how many were shed, the p99 of
 * the accepted (counted from the instant each request was due), how fast sheds were answered,
 * what `/health` said meanwhile (polled every 250 ms: it must stay 200 while the database
 * answers), and whether nothing was lost: every accepted address is a member on the code with an
 * activation link and its activation email, and no shed address was written.
 */
import { randomBytes } from 'node:crypto';
import { num, printTable } from './format.mjs';
import { openLoop, percentile, pollHealth } from './open-loop.mjs';
import { createCampaignCode, measureRegistrations, onPostgresApi, outcomeOf, registerResult, registrationForm } from './register-section.mjs';

const RATES = [50, 100, 200];
/** The goal of every rate: accepted registrations answered within this (p99), sheds within it too. */
const P99_GOAL_MS = 1000;

/**
 * @typedef {object} RateRun
 * @property {number} rate
 * @property {number} duration
 * @property {number} offered
 * @property {number} accepted
 * @property {number} acceptedPerSecond accepted ÷ the seconds from the first request's instant to the last accepted answer (at least `duration`)
 * @property {number} shed
 * @property {Record<string, number>} others answers neither accepted nor shed, by outcome or HTTP status
 * @property {{ p50: number, p99: number, max: number }} acceptedLatency ms
 * @property {number} shedMax ms, the slowest shed answer
 * @property {number} sendLagP99 ms
 * @property {{ polls: number, ok: number, maxMs: number }} health
 * @property {{ missing: number, shedWritten: number }} check
 */

/**
 * One rate: offer, then look in the database for every accepted and every shed address.
 * @param {import('./sections.mjs').SectionContext} context
 * @param {import('./register-section.mjs').PostgresApi} postgres
 * @param {number} rate
 * @param {number} duration
 * @returns {Promise<RateRun>}
 */
async function offer({ root }, { api, admin, schema }, rate, duration) {
  const campaign = createCampaignCode(root, api.env);
  const apiUrl = `${api.apiUrl}/graphql`;
  const form = await registrationForm(root, apiUrl, campaign.code);
  const run = randomBytes(3).toString('hex');
  const emailOf = (/** @type {number} */ index) => `open-${run}-${rate}-${index}@example.com`;
  console.log(`  ${rate}/s for ${duration} s, open loop…`);
  const health = pollHealth(`${api.apiUrl}/health`);
  const result = await openLoop({ url: apiUrl, rate, duration, makeBody: (index) => form(emailOf(index)) });
  const healthSeen = await health.stop();

  /** @type {string[]} */
  const acceptedEmails = [];
  /** @type {string[]} */
  const shedEmails = [];
  /** @type {number[]} */
  const acceptedLatencies = [];
  let lastAccepted = 0;
  /** @type {number[]} */
  const shedLatencies = [];
  /** @type {Record<string, number>} */
  const others = {};
  for (const answer of result.answers) {
    const outcome = answer.status === 0 ? 'no answer' : answer.status === 200 ? outcomeOf(answer.text) : `HTTP ${answer.status}`;
    if (outcome === 'FORM_FINISHED') {
      acceptedEmails.push(emailOf(answer.index));
      acceptedLatencies.push(answer.latency);
      lastAccepted = Math.max(lastAccepted, answer.doneAt);
    } else if (outcome === 'OVERLOADED') {
      shedEmails.push(emailOf(answer.index));
      shedLatencies.push(answer.latency);
    } else others[outcome] = (others[outcome] ?? 0) + 1;
  }

  // Every accepted address: a member on the code, with an activation link and the activation email.
  const complete = await admin.query(
    `select m.email from ${schema}.members m
      where m.registration_code_id = $1 and m.email = any($2)
        and exists (select 1 from ${schema}.activations a where a.member_id = m.id)
        and exists (select 1 from ${schema}.email_outbox o where o.recipient = m.email and o.template = 'activation')`,
    [campaign.id, acceptedEmails],
  );
  // No shed address was written: the visitor was told to try again.
  const written = await admin.query(`select count(*)::int as n from ${schema}.members where email = any($1)`, [shedEmails]);
  return {
    rate,
    duration,
    offered: result.answers.length,
    accepted: acceptedEmails.length,
    acceptedPerSecond: acceptedEmails.length / Math.max(duration, lastAccepted / 1000),
    shed: shedEmails.length,
    others,
    acceptedLatency: { p50: percentile(acceptedLatencies, 0.5), p99: percentile(acceptedLatencies, 0.99), max: Math.max(0, ...acceptedLatencies) },
    shedMax: Math.max(0, ...shedLatencies),
    sendLagP99: result.sendLagP99,
    health: { polls: healthSeen.length, ok: healthSeen.filter((h) => h.status === 200).length, maxMs: Math.max(0, ...healthSeen.map((h) => h.latency)) },
    check: { missing: acceptedEmails.length - (complete.rowCount ?? 0), shedWritten: written.rows[0].n },
  };
}

/** @param {RateRun} r */
const nothingLost = (r) => r.check.missing === 0 && r.check.shedWritten === 0;
/** @param {RateRun} r */
const met = (r) =>
  nothingLost(r) &&
  Object.keys(r.others).length === 0 &&
  r.health.ok === r.health.polls &&
  r.shedMax < P99_GOAL_MS &&
  (r.accepted === 0 || r.acceptedLatency.p99 < P99_GOAL_MS);

/** @type {import('./sections.mjs').Section} */
export const registerOpenLoopSection = {
  name: 'register-open-loop',
  title: `register offered at ${RATES.join(', ')}/s on PostgreSQL (open loop), beside the closed-loop maximum`,
  needs: 'alone',
  run: (context) =>
    onPostgresApi(
      context,
      {
        unreachable: (reason) => ({
          figures: RATES.map((rate) => ({ id: `register.open.${rate}`, label: `register offered ${rate}/s on PostgreSQL`, measured: 'not measured', goal: { text: '', met: null } })),
          lines: [`  ${reason}`],
        }),
      },
      async (postgres) => {
        const duration = context.settings.quick ? 3 : 5;
        const closed = registerResult('postgres', await measureRegistrations(context, postgres.api, 'closed loop, 20 connections', postgres.count), { perSecond: 300 });
        const maximum = /** @type {{ result: import('./load.mjs').LoadResult }} */ (closed.data).result;
        /** @type {RateRun[]} */
        const runs = [];
        for (const rate of RATES) runs.push(await offer(context, postgres, rate, duration));

        /** @type {string[]} */
        const lines = [];
        printTable(
          ['offered', 'accepted', 'accepted/s', 'shed', 'other', 'p50', 'p99', 'max', 'slowest shed', '/health 200', 'nothing lost'],
          runs.map((r) => [
            `${r.rate}/s × ${r.duration} s`,
            num(r.accepted),
            num(r.acceptedPerSecond, 0),
            num(r.shed),
            Object.entries(r.others).map(([k, v]) => `${k} ${v}`).join(', ') || '0',
            num(r.acceptedLatency.p50),
            num(r.acceptedLatency.p99),
            num(r.acceptedLatency.max),
            num(r.shedMax),
            `${r.health.ok}/${r.health.polls} (max ${num(r.health.maxMs)} ms)`,
            nothingLost(r) ? 'yes' : `NO: ${r.check.missing} accepted missing, ${r.check.shedWritten} shed written`,
          ]),
          '  ',
          (line) => lines.push(line),
        );
        const lag = Math.max(...runs.map((r) => r.sendLagP99));
        return {
          figures: [
            { ...closed.figures[0], id: 'register.open.closedLoop', label: 'register on PostgreSQL, closed loop 20 conns (the maximum)', goal: undefined },
            ...runs.map((r) => ({
              id: `register.open.${r.rate}`,
              label: `register offered ${r.rate}/s on PostgreSQL (open loop)`,
              measured: `${num(r.acceptedPerSecond, 0)} accepted/s, ${num(r.shed)} shed, p99 ${num(r.acceptedLatency.p99)} ms`,
              goal: { text: `p99 and sheds < ${P99_GOAL_MS} ms, nothing lost, /health 200`, met: met(r) },
            })),
          ],
          lines: [
            `  Closed loop (20 connections, each sends again when answered): ${num(maximum.requestsPerSecond, 0)}/s, p99 ${num(maximum.p99)} ms.`,
            `  Open loop: latencies in ms from the instant each request was due; "accepted" answered FORM_FINISHED, "shed" OVERLOADED;`,
            `  accepted/s over the seconds from the first request's instant to the last accepted answer.`,
            '',
            ...lines,
            '',
            `  The generator sent late by at most ${num(lag, 1)} ms (p99)${lag > 20 ? ' — it could not keep the rate: the machine is busy' : ''}.`,
          ],
          data: { closedLoop: closed.data, runs },
          suspect: Boolean(closed.suspect) || runs.some((r) => !nothingLost(r) || Object.keys(r.others).length > 0),
        };
      },
    ),
};
