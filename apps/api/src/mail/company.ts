/**
 * The company the emails' imprint names (ADR 060): the COMPANY_* settings, each unset entry the
 * placeholder's (@velvet/validation/shop). Read once, when the outbox worker starts.
 */
import type { Env } from '../config.ts';
import { COMPANY } from '@velvet/validation/shop';
import type { Company } from '@velvet/validation/shop';

/** The settings that name the company. */
export type CompanySettings = Partial<Pick<Env, Extract<keyof Env, `COMPANY_${string}`>>>;

export function companyFromEnv(env: CompanySettings): Company {
  return {
    name: env.COMPANY_NAME ?? COMPANY.name,
    street: env.COMPANY_STREET ?? COMPANY.street,
    postalCode: env.COMPANY_POSTAL_CODE ?? COMPANY.postalCode,
    city: env.COMPANY_CITY ?? COMPANY.city,
    country: env.COMPANY_COUNTRY ?? COMPANY.country,
    register: env.COMPANY_REGISTER ?? COMPANY.register,
    managingDirectors: env.COMPANY_MANAGING_DIRECTORS ?? COMPANY.managingDirectors,
    email: env.COMPANY_EMAIL ?? COMPANY.email,
  };
}
