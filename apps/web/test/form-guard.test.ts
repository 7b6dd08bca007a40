/**
 * The public forms' guards (issue 12 §2, ADR 041; issue 19 §2, issue 20 §1). On the web server:
 * a filled honeypot, or a start that is forged, sent sooner than FORM_MIN_FILL_SECONDS after it,
 * a day old or used up, is a script's; a form without a start (no JavaScript) goes on to the API;
 * a person's form carries the proof its script solved, if any. In the browser: the start is
 * fetched once per page load, when a public form is first shown, and kept across the server's
 * answers. And through the real web server: the start comes from its own door, never from the page.
 */
import { createHmac } from 'node:crypto';
import { RouterContextProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GUARD_FIELDS } from '@velvet/validation/sign-up-guard-fields';
import { requestInfoContext, type RequestInfo } from '../app/lib/page/context.ts';
import { formStartToken, isScriptedSubmission, proofOfWorkOf } from '../app/lib/forms/form-guard.server.ts';
import {
  FORM_START_MAX_AGE_MS,
  FORM_START_PATH,
  FORM_START_USES,
  forgetFormStart,
  formStartSent,
  formStartVerdict,
  requestFormStart,
  type FormStartAnswer,
  type FormStartVerdict,
} from '../app/lib/forms/form-start.ts';
import { clientNetwork } from '@velvet/validation/client-network';
import { startStandInApi, type StandInApi } from './support/stand-in-api.ts';
import { startWebServer, stopPages, type TestWebServer } from './support/web-server.ts';

const SECRET = 'form-guard-test-secret-0123456789abcdef';

function context(formMinFillSeconds = 2) {
  const provider = new RouterContextProvider();
  provider.set(requestInfoContext, { appSecret: SECRET, formMinFillSeconds } as RequestInfo);
  return provider;
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const shown = new Date('2026-06-15T10:00:00.000Z');
const after = (seconds: number) => new Date(shown.getTime() + seconds * 1000);
const started = formStartToken(SECRET, shown);

describe('screening a public form', () => {
  it('lets a person through: an empty honeypot and the time it takes to fill in a form', () => {
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started, [GUARD_FIELDS.honeypot]: '', email: 'a@example.com' }), context(), after(2))).toBe(false);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started }), context(), after(600))).toBe(false);
  });

  it('knows a script by its filled honeypot, with a start or without', () => {
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started, [GUARD_FIELDS.honeypot]: 'https://spam.example' }), context(), after(30))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.honeypot]: 'https://spam.example' }), context(), after(30))).toBe(true);
  });

  it('knows a script by a form sent faster than a person fills one in', () => {
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started }), context(), after(1.9))).toBe(true);
    // FORM_MIN_FILL_SECONDS=0 turns the time check off; the honeypot still counts.
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started }), context(0), after(0))).toBe(false);
  });

  it('takes a form without a start for a browser without JavaScript, not a script: it goes on to the API', () => {
    expect(isScriptedSubmission(form({}), context(), after(0))).toBe(false);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: '' }), context(), after(0))).toBe(false);
  });

  it('knows a script by a start it forged or that was signed with another secret', () => {
    const [instant, ...signed] = started.split('.');
    const earlier = (parseInt(instant!, 36) - 60_000).toString(36);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: [earlier, ...signed].join('.') }), context(), after(1))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: formStartToken('another-secret-0123456789abcdef0123', shown) }), context(), after(30))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: 'x'.repeat(200) }), context(), after(30))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: 'x' }), context(), after(30))).toBe(true);
  });

  it('gives two visitors of the same millisecond starts of their own, each with its own uses (twenty colleagues behind one office)', () => {
    const starts = Array.from({ length: 20 }, () => formStartToken(SECRET, shown));
    expect(new Set(starts).size).toBe(20);
    // Each colleague sends once; none is the sixth use of a shared start.
    expect(starts.map((start) => isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), after(30)))).toEqual(Array(20).fill(false));
  });

  it('still reads a start handed out before starts had a random part (a page loaded before a deployment)', () => {
    const instant = shown.getTime().toString(36);
    const legacy = `${instant}.${createHmac('sha256', `velvet-form-start:${SECRET}`).update(instant).digest('base64url')}`;
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: legacy }), context(), after(30))).toBe(false);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: legacy }), context(), after(1))).toBe(true);
  });

  it('counts the fill time from the first showing: a correction sent right after an error goes through', () => {
    const start = formStartToken(SECRET, new Date(shown.getTime() + 4));
    // Sent after 3 s, answered with an error, corrected and sent again half a second later: the same start.
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), after(3))).toBe(false);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), after(3.5))).toBe(false);
  });
});

describe('a form start is good for a day and a few submissions (issue 18 §7)', () => {
  it('knows a script by a start older than a day', () => {
    const start = formStartToken(SECRET, new Date(shown.getTime() + 3));
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), new Date(shown.getTime() + FORM_START_MAX_AGE_MS + 1000))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), new Date(shown.getTime() + FORM_START_MAX_AGE_MS - 1000))).toBe(false);
  });

  it('lets a few submissions through on one start (corrections, a double submit), not a script’s many after one wait', () => {
    const start = formStartToken(SECRET, new Date(shown.getTime() + 1));
    const verdicts = Array.from({ length: 20 }, () => isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), after(5)));
    expect(verdicts.filter((scripted) => !scripted)).toHaveLength(FORM_START_USES);
    expect(verdicts.slice(0, FORM_START_USES)).toEqual(Array(FORM_START_USES).fill(false));
    // Another start (another page load) is a person's again.
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: formStartToken(SECRET, new Date(shown.getTime() + 2)) }), context(), after(5))).toBe(false);
  });
});

describe("the proof a person's form carries", () => {
  it('goes on to the API as it came; none (no JavaScript) is null, and the API decides', () => {
    expect(proofOfWorkOf(form({ [GUARD_FIELDS.proofOfWork]: 'eyJjaGFsbGVuZ2UiOnt9fQ' }))).toBe('eyJjaGFsbGVuZ2UiOnt9fQ');
    expect(proofOfWorkOf(form({}))).toBeNull();
    expect(proofOfWorkOf(form({ [GUARD_FIELDS.proofOfWork]: '' }))).toBeNull();
    expect(proofOfWorkOf(form({ [GUARD_FIELDS.proofOfWork]: 'x'.repeat(5000) }))).toBeNull();
  });
});

describe('the start in the browser: once per page load, kept across answers', () => {
  let answers: (() => Response)[] = [];
  const fetched: string[] = [];
  const door = (readyInMs = 2000, start = `start-${fetched.length}`) => () => Response.json({ start, readyInMs } satisfies FormStartAnswer);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: shown });
    forgetFormStart();
    fetched.length = 0;
    answers = [];
    vi.stubGlobal('fetch', (url: string) => {
      fetched.push(url);
      const answer = answers.shift();
      return answer ? Promise.resolve(answer()) : Promise.reject(new TypeError('Failed to fetch'));
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** Waits as a form waits, until it may go: what it carries. */
  async function send(): Promise<string | null> {
    let verdict: FormStartVerdict = formStartVerdict();
    while ('wait' in verdict) {
      const waiting = verdict.wait;
      await vi.runAllTimersAsync();
      await waiting;
      verdict = formStartVerdict();
    }
    if (verdict.value) formStartSent();
    return verdict.value;
  }

  it('is fetched once, from the door, however many forms are shown; a form sent before it is usable waits', async () => {
    answers.push(door(2000, 'first'));
    requestFormStart();
    requestFormStart();
    // Sent at once (autofill, a quick press): it waits for the start and its fill time, then goes with it.
    const verdict = formStartVerdict();
    expect('wait' in verdict).toBe(true);
    expect(await send()).toBe('first');
    expect(Date.now() - shown.getTime()).toBeGreaterThanOrEqual(2000);
    expect(fetched).toEqual([FORM_START_PATH]);
  });

  it('is kept across the server’s answers and the next step: a correction goes at once, with the first start', async () => {
    answers.push(door(2000, 'first'), door(2000, 'second'));
    requestFormStart();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await send()).toBe('first');
    // The server answers with an error; the form (or lean step 2) is shown again and sent right away.
    requestFormStart();
    expect(formStartVerdict()).toEqual({ value: 'first' });
    expect(await send()).toBe('first');
    expect(fetched).toHaveLength(1);
  });

  it('goes without a start once it is used up or a day old, as a form without JavaScript', async () => {
    answers.push(door(0, 'first'));
    requestFormStart();
    for (let i = 0; i < FORM_START_USES; i++) expect(await send()).toBe('first');
    expect(await send()).toBeNull();

    forgetFormStart();
    answers.push(door(0, 'second'));
    requestFormStart();
    expect(await send()).toBe('second');
    await vi.advanceTimersByTimeAsync(FORM_START_MAX_AGE_MS);
    expect(await send()).toBeNull();
  });

  it('goes without a start when the door fails, and asks again when the next form is shown', async () => {
    requestFormStart();
    expect(await send()).toBeNull();
    answers.push(door(0, 'later'));
    requestFormStart();
    expect(await send()).toBe('later');
    expect(fetched).toHaveLength(2);
  });
});

describe('the start’s door and the forms on the real web server', () => {
  /** A stand-in API: applyForMembership answers from `replies` (in turn) and is recorded; the country is DE; anything else fails. */
  let api: StandInApi;
  let web: TestWebServer;
  const calls: { proofOfWork: unknown }[] = [];
  let replies: { accepted: boolean; userErrors: { code: string; field: string; messageId: string }[] }[] = [];

  beforeAll(async () => {
    api = await startStandInApi(({ operationName, variables }) => {
      if (operationName === 'countryDetails') return { data: { countryDetails: { country: 'DE' } } };
      if (operationName !== 'applyForMembership') return { errors: [{ message: 'not here' }] };
      calls.push({ proofOfWork: variables?.proofOfWork });
      return { data: { applyForMembership: replies.shift() ?? { accepted: true, userErrors: [] } } };
    });
    web = await startWebServer({ API_URL: api.url });
    // Compile the pages before the tests: a cold compile on a busy machine outlasts a test's 5 s.
    await fetch(`${web.url}/membership-interest/apply`);
  }, 120_000);
  afterAll(async () => {
    await web?.close();
    await stopPages();
    await api?.close();
  });
  beforeEach(() => {
    calls.length = 0;
    replies = [];
  });

  const apply = (fields: Record<string, string>) =>
    fetch(`${web.url}/membership-interest/apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: web.url },
      body: new URLSearchParams({ email: 'lena@example.com', ...fields }),
      redirect: 'manual',
    });
  const CONFIRMATION = '/membership-interest/confirmation';
  /** A start as the door handed it out `secondsAgo` (when the form was first shown). */
  const startFrom = (secondsAgo: number) => formStartToken(web.env.APP_SECRET, new Date(Date.now() - secondsAgo * 1000));

  it('hands out a signed start, never cached and never in the page', async () => {
    const page = await (await fetch(`${web.url}/membership-interest/apply`)).text();
    expect(page).not.toContain(`name="${GUARD_FIELDS.startedAt}"`);
    const response = await fetch(`${web.url}${FORM_START_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer = (await response.json()) as FormStartAnswer;
    expect(answer.readyInMs).toBe(web.env.FORM_MIN_FILL_SECONDS * 1000);
    // Sent at once with it, a form is a script's: "confirmed", and the API hears nothing.
    const sent = await apply({ [GUARD_FIELDS.startedAt]: answer.start });
    expect(sent.headers.get('location')).toBe(CONFIRMATION);
    expect(calls).toEqual([]);
  });

  it('passes a form without a start on to the API, its proof as it came: the API’s answer is the visitor’s, not a made-up success', async () => {
    replies.push({ accepted: false, userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.disposableEmail' }] });
    const response = await apply({ [GUARD_FIELDS.proofOfWork]: 'eyJjaGFsbGVuZ2UiOnt9fQ' });
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(calls).toEqual([{ proofOfWork: 'eyJjaGFsbGVuZ2UiOnt9fQ' }]);
  });

  it('answers a forged start with the confirmation and calls nothing', async () => {
    const [instant = '', signature = ''] = startFrom(30).split('.');
    const response = await apply({ [GUARD_FIELDS.startedAt]: `${(parseInt(instant, 36) - 1).toString(36)}.${signature}` });
    expect(response.headers.get('location')).toBe(CONFIRMATION);
    expect(calls).toEqual([]);
  });

  it('lets a correction after the server’s error through within the minimum fill time: the start is the first showing’s', async () => {
    const start = startFrom(web.env.FORM_MIN_FILL_SECONDS + 1);
    replies.push({ accepted: false, userErrors: [{ code: 'INVALID_FIELD', field: 'email', messageId: 'validation.disposableEmail' }] });
    const refused = await apply({ email: 'lena@mailinator.com', [GUARD_FIELDS.startedAt]: start });
    expect(refused.status).toBe(200);
    // Corrected and sent again at once, with the start the page load keeps.
    const corrected = await apply({ email: 'lena@example.com', [GUARD_FIELDS.startedAt]: start });
    expect(corrected.headers.get('location')).toBe(CONFIRMATION);
    expect(calls).toHaveLength(2);
  });

  it('limits the starts per client network like the proof-of-work challenge, an IPv6 client by its /64', async () => {
    const limited = await startWebServer({ RATE_LIMIT_FORM_STARTS_PER_MINUTE: '2' });
    try {
      // Two a minute, and a burst of one per 10 minutes.
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}${FORM_START_PATH}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe(clientNetwork('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'));
    expect(clientNetwork('2001:db8:1:2::1')).not.toBe(clientNetwork('2001:db8:1:3::1'));
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
  });
});
