/**
 * The social second step's form (spec §2, §3 "social-registration-2nd-step"): what the
 * provider did not tell us, the country with its legal documents, consent, and shopping
 * preferences. Built from the shared field schemas, used by the page's action.
 */
import { country, firstName, gender, lastName, newsletter, termsAccepted } from '@velvet/validation/registration';
import { z } from 'zod';
import type { ShoppingPreference } from './operations.ts';

/** The sign-up buttons a social provider can stand behind (the labels the catalogs have). */
export const SOCIAL_BUTTONS = ['google', 'facebook', 'apple'] as const;
export type SocialButton = (typeof SOCIAL_BUTTONS)[number];

/** The GraphQL enum ShoppingPreference, in the order the page offers them. */
export const SHOPPING_PREFERENCES = ['WOMEN', 'MEN', 'KIDS', 'HOME', 'BEAUTY', 'LUXURY', 'SPORT'] as const satisfies readonly ShoppingPreference[];

export const PREFERENCES_MESSAGE_ID = 'validation.preferences';

/** At least one of the offered preferences, each at most once. */
export const shoppingPreferences = z
  .array(z.enum(SHOPPING_PREFERENCES, { error: PREFERENCES_MESSAGE_ID }), { error: PREFERENCES_MESSAGE_ID })
  .min(1, { error: PREFERENCES_MESSAGE_ID })
  .transform((values) => [...new Set(values)]);

/** A field the page did not show: whatever arrives for it is dropped. */
const notAsked = z.string().optional().transform(() => undefined);

/** Which names the page asks for: those the provider did not give (in a form we accept). */
export interface AskedNames {
  firstName: boolean;
  lastName: boolean;
}

export function socialSecondStepForm(ask: AskedNames) {
  return z.object({
    gender,
    firstName: ask.firstName ? firstName : notAsked,
    lastName: ask.lastName ? lastName : notAsked,
    country,
    newsletter,
    termsAccepted,
    shoppingPreferences,
  });
}
