/**
 * Social sign-up in the web app. Its second step's form (`socialSecondStepForm`) and the
 * shopping preferences are the shared vocabulary of @velvet/validation/registration.
 */
/** The sign-up buttons a social provider can stand behind (the labels the catalogs have). */
export const SOCIAL_BUTTONS = ['google', 'facebook', 'apple'] as const;
export type SocialButton = (typeof SOCIAL_BUTTONS)[number];
