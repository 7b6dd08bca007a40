/**
 * The shop behind the club and the company that runs it, for both apps: the web's footer links
 * and the emails' login button and imprint (issue 22 row 19, ADR 058). German readers expect the
 * company's name and address in every email (§ 5 DDG, § 35a GmbHG for business letters).
 * The company below is a placeholder (a register number of zeros, an example.com-style address):
 * a deployment names the real one with the COMPANY_* settings (README, ADR 060), which replace
 * these entries one by one.
 */

/** The shop's own site: its login, legal and help pages. */
export const SHOP_ORIGIN = 'https://www.velvetrope.example';

export const SHOP_LINKS = {
  login: `${SHOP_ORIGIN}/login`,
  imprint: `${SHOP_ORIGIN}/imprint`,
  privacy: `${SHOP_ORIGIN}/privacy`,
} as const;

/** The company, as its imprint names it; the country is an ISO code, named in the reader's language. */
export interface Company {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  register: string;
  managingDirectors: string;
  email: string;
}

/** The placeholder company, until the COMPANY_* settings name the real one. */
export const COMPANY: Readonly<Company> = {
  name: 'Velvet Rope GmbH',
  street: 'Maximilianstraße 12',
  postalCode: '80539',
  city: 'München',
  country: 'DE',
  register: 'Amtsgericht München, HRB 000000',
  managingDirectors: 'Clara Weiss, Jonas Berg',
  email: 'service@velvetrope.example',
};
