import type { Page } from '@playwright/test';
import type { Locale } from '@velvet/i18n/locales';
import { plain, text } from '../support.ts';

export interface Person {
  gender: 'female' | 'male';
  firstName: string;
  lastName: string;
  email: string;
  country?: string;
}

/** Fills the one-step form wherever it is (its page, or the landing page's dialog). */
export async function fillOneStep(page: Pick<Page, 'getByLabel' | 'getByRole'>, locale: Locale, person: Person) {
  await page.getByLabel(text(locale, person.gender === 'female' ? 'registration.gender.female' : 'registration.gender.male'), { exact: true }).check();
  await page.getByLabel(text(locale, 'registration.firstName'), { exact: true }).fill(person.firstName);
  await page.getByLabel(text(locale, 'registration.lastName'), { exact: true }).fill(person.lastName);
  await page.getByLabel(text(locale, 'registration.email')).fill(person.email);
  if (person.country) await page.getByLabel(text(locale, 'registration.country')).selectOption(person.country);
  await page.getByRole('checkbox', { name: plain(locale, 'registration.terms') }).check();
}
