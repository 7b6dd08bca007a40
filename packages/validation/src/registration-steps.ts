/** Apart from registration.ts so that the landing page reads it without Zod (ADR 037). */

/**
 * The steps of the registration form, posted as its `intent`: the one-step form, or the lean
 * flow's first (email, country, consent) and second (gender, names) step.
 */
const REGISTRATION_STEPS = ['one-step', 'lean-1', 'lean-2'] as const;
export type RegistrationStep = (typeof REGISTRATION_STEPS)[number];

export function isRegistrationStep(value: unknown): value is RegistrationStep {
  return typeof value === 'string' && (REGISTRATION_STEPS as readonly string[]).includes(value);
}
