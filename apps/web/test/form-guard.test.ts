/**
 * The public forms' screening on the web server (issue 12 §2, ADR 041): a filled honeypot, a
 * missing or forged start, or a form sent sooner than FORM_MIN_FILL_SECONDS after its rendering
 * is a script's; a person's form carries the proof its script solved, if any.
 */
import { RouterContextProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GUARD_FIELDS } from '@velvet/validation/sign-up-guard-fields';
import { requestInfoContext, type RequestInfo } from '../app/lib/context.ts';
import { FORM_START_MAX_AGE_MS, FORM_START_USES, formStartToken, isScriptedSubmission, proofOfWorkOf } from '../app/lib/form-guard.server.ts';

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

const rendered = new Date('2026-06-15T10:00:00.000Z');
const after = (seconds: number) => new Date(rendered.getTime() + seconds * 1000);
const started = formStartToken(SECRET, rendered);

describe('screening a public form', () => {
  it('lets a person through: an empty honeypot and the time it takes to fill in a form', () => {
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started, [GUARD_FIELDS.honeypot]: '', email: 'a@example.com' }), context(), after(2))).toBe(false);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started }), context(), after(600))).toBe(false);
  });

  it('knows a script by its filled honeypot', () => {
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started, [GUARD_FIELDS.honeypot]: 'https://spam.example' }), context(), after(30))).toBe(true);
  });

  it('knows a script by a form sent faster than a person fills one in', () => {
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started }), context(), after(1.9))).toBe(true);
    // FORM_MIN_FILL_SECONDS=0 turns the time check off; the honeypot still counts.
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: started }), context(0), after(0))).toBe(false);
  });

  it('knows a script by a start it left out, forged, or signed with another secret', () => {
    expect(isScriptedSubmission(form({}), context(), after(30))).toBe(true);
    const [instant] = started.split('.');
    const earlier = (parseInt(instant!, 36) - 60_000).toString(36);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: `${earlier}.${started.split('.')[1]}` }), context(), after(1))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: formStartToken('another-secret-0123456789abcdef0123', rendered) }), context(), after(30))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: 'x'.repeat(200) }), context(), after(30))).toBe(true);
  });
});

describe('a form start is good for a day and a few submissions (issue 18 §7)', () => {
  it('knows a script by a start older than a day', () => {
    const start = formStartToken(SECRET, new Date(rendered.getTime() + 3));
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), new Date(rendered.getTime() + FORM_START_MAX_AGE_MS + 1000))).toBe(true);
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), new Date(rendered.getTime() + FORM_START_MAX_AGE_MS - 1000))).toBe(false);
  });

  it('lets a few submissions through on one start (a double submit, going back), not a script’s many after one wait', () => {
    const start = formStartToken(SECRET, new Date(rendered.getTime() + 1));
    const verdicts = Array.from({ length: 20 }, () => isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: start }), context(), after(5)));
    expect(verdicts.filter((scripted) => !scripted)).toHaveLength(FORM_START_USES);
    expect(verdicts.slice(0, FORM_START_USES)).toEqual(Array(FORM_START_USES).fill(false));
    // A new start, as every answer renders, is a person's again.
    expect(isScriptedSubmission(form({ [GUARD_FIELDS.startedAt]: formStartToken(SECRET, new Date(rendered.getTime() + 2)) }), context(), after(5))).toBe(false);
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
