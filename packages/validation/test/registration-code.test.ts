import { describe, expect, it } from 'vitest';
import { accessCodeForm } from '../src/registration-code-form.ts';

const firstError = (input: unknown) => {
  const result = accessCodeForm.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('access code', () => {
  it('asks for a code when none is given', () => {
    expect(firstError({})).toBe('validation.accessCodeMissing');
    expect(firstError({ code: '   ' })).toBe('validation.accessCodeMissing');
  });

  it('refuses characters a code never has (spec §5 "Please use valid characters") and overlong codes', () => {
    expect(firstError({ code: '<script>' })).toBe('validation.invalidCharacters');
    expect(firstError({ code: 'WELCOME_2026' })).toBe('validation.invalidCharacters');
    expect(firstError({ code: 'A'.repeat(65) })).toBe('validation.accessCodeInvalid');
  });

  it('reads a code typed with spaces, as from paper, without them', () => {
    expect(accessCodeForm.parse({ code: ' ab cd ' })).toEqual({ code: 'abcd' });
  });

  it('accepts a code with surrounding spaces and returns it trimmed', () => {
    expect(accessCodeForm.parse({ code: '  welcome2026 ' })).toEqual({ code: 'welcome2026' });
  });
});
