/** The code errors' one table: what each error means for the visitor (spec §8). */
import { describe, expect, it } from 'vitest';
import { isTrackedEventName } from '../src/funnel.ts';
import {
  REGISTRATION_CODE_ERRORS,
  isBlocking,
  refusalForReason,
  refusalMessage,
  verdict,
  type RegistrationCodeError,
} from '../src/registration-code.ts';

describe('verdict', () => {
  it('lets a code through with no errors, or only the informational CUSTOMIZATION_MISSING', () => {
    expect(verdict([])).toEqual({ blocking: false });
    expect(verdict(['CUSTOMIZATION_MISSING'])).toEqual({ blocking: false });
    expect(isBlocking('CUSTOMIZATION_MISSING')).toBe(false);
  });

  const cases: [RegistrationCodeError, string, string | null, string][] = [
    ['REGISTRATION_CODE_INVALID', 'invalid', null, 'invitation.invalid'],
    ['REGISTRATION_CODE_REVOKED', 'revoked', null, 'invitation.revoked'],
    ['REGISTRATION_CODE_REPLACED', 'replaced', null, 'invitation.replaced'],
    ['INVITER_INVALID', 'invalid', null, 'invitation.invalid'],
    ['REFERER_INVALID', 'referrer', null, 'deny.referrer'],
    ['REGISTRATION_TIMESTAMP_MISSING', 'invalid-link', 'error_registration_timestamp_missing', 'invitation.invalidLink'],
    ['REGISTRATION_CODE_EXPIRED', 'expired', 'error_registration_code_expired', 'invitation.expired'],
    ['REGISTRATION_CODE_NO_BALANCE_LEFT', 'no-balance', 'error_registration_code_no_balance', 'invitation.noBalance'],
    ['REGISTRATION_CODE_BALANCE_LESS_THAN_PENDING_REGISTRATIONS', 'no-balance', 'error_registration_code_no_balance', 'invitation.noBalance'],
  ];
  it.each(cases)('%s blocks: deny reason %s, event %s, message %s', (error, reason, event, messageId) => {
    const result = verdict([error, 'CUSTOMIZATION_MISSING']);
    expect(result).toMatchObject({ blocking: true, error, reason, event, messageId });
    expect(isBlocking(error)).toBe(true);
  });

  it('names every error of the enum exactly once', () => {
    expect([...cases.map(([error]) => error), 'CUSTOMIZATION_MISSING'].sort()).toEqual([...REGISTRATION_CODE_ERRORS].sort());
  });

  it('only tracks events of the funnel vocabulary', () => {
    for (const error of REGISTRATION_CODE_ERRORS) {
      const result = verdict([error]);
      if (result.blocking && result.event) expect(isTrackedEventName(result.event)).toBe(true);
    }
  });

  it('picks what the visitor most needs to hear, whatever order the errors come in', () => {
    expect(verdict(['REGISTRATION_CODE_NO_BALANCE_LEFT', 'REGISTRATION_CODE_EXPIRED', 'INVITER_INVALID'])).toMatchObject({ reason: 'invalid', error: 'INVITER_INVALID' });
    expect(verdict(['REGISTRATION_CODE_NO_BALANCE_LEFT', 'REGISTRATION_CODE_EXPIRED'])).toMatchObject({ reason: 'expired' });
    expect(verdict(['REGISTRATION_CODE_EXPIRED', 'REGISTRATION_TIMESTAMP_MISSING'])).toMatchObject({ reason: 'invalid-link' });
    expect(verdict(['REGISTRATION_CODE_EXPIRED', 'REFERER_INVALID'])).toMatchObject({ reason: 'referrer' });
  });
});

describe('refusalMessage', () => {
  const refusal = (error: RegistrationCodeError) => {
    const result = verdict([error]);
    if (!result.blocking) throw new Error(`${error} does not block`);
    return result;
  };
  it('says "this link has expired" for a link and "your invitation has expired" for a typed code', () => {
    expect(refusalMessage(refusal('REGISTRATION_CODE_EXPIRED'), 'link')).toEqual({ id: 'invitation.expired' });
    expect(refusalMessage(refusal('REGISTRATION_CODE_EXPIRED'), 'typed')).toEqual({ id: 'deny.expired' });
  });
  it("names the inviter who has no invitations left, when the name is known", () => {
    expect(refusalMessage(refusal('REGISTRATION_CODE_NO_BALANCE_LEFT'), 'link', 'Anna')).toEqual({ id: 'invitation.noBalance', values: { inviterName: 'Anna' } });
    expect(refusalMessage(refusal('REGISTRATION_CODE_NO_BALANCE_LEFT'), 'typed')).toEqual({ id: 'invitation.noBalanceAnonymous' });
  });
});

describe('refusalForReason (the deny page)', () => {
  it.each([
    ['invalid', 'deny.invalid', null],
    ['expired', 'deny.expired', 'error_registration_code_expired'],
    ['no-balance', 'invitation.noBalanceAnonymous', 'error_registration_code_no_balance'],
    ['invalid-link', 'invitation.invalidLink', 'error_registration_timestamp_missing'],
    ['referrer', 'deny.referrer', null],
    ['revoked', 'invitation.revoked', null],
    ['replaced', 'invitation.replacedAnonymous', null],
    ['token', 'deny.invalid', null],
    [null, 'deny.invalid', null],
  ])('%s → %s, event %s', (reason, messageId, event) => {
    const refusal = refusalForReason(reason);
    expect(refusalMessage(refusal, 'typed').id).toBe(messageId);
    expect(refusal.event).toBe(event);
  });
});
