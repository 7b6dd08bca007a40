/**
 * The choices the registration forms offer, without their rules: a page renders these with
 * no Zod at all (the rules, ./registration.ts, load in the browser when the person starts on
 * the form).
 */

/** Ms/Mrs = FEMALE, Mr = MALE (the GraphQL enum Gender). */
export const GENDERS = ['FEMALE', 'MALE'] as const;
export type Gender = (typeof GENDERS)[number];

/** The GraphQL enum ShoppingPreference, in the order the social second step offers them. */
export const SHOPPING_PREFERENCES = ['WOMEN', 'MEN', 'KIDS', 'HOME', 'BEAUTY', 'LUXURY', 'SPORT'] as const;
export type ShoppingPreference = (typeof SHOPPING_PREFERENCES)[number];
