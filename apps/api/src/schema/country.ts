import { detectCountry } from '../services/detect-country.ts';
import { builder } from './builder.ts';

const CountryDetails = builder.objectRef<{ country: string | null }>('CountryDetails');
CountryDetails.implement({
  description: "The visitor's country as far as the server can tell.",
  fields: (t) => ({
    country: t.string({
      nullable: true,
      description: 'ISO 3166-1 alpha-2 code of a served country, or null when unknown or not served.',
      resolve: (details) => details.country,
    }),
  }),
});

builder.queryField('countryDetails', (t) =>
  t.field({
    type: CountryDetails,
    description: 'Detects the country from the edge country header (when configured), else from Accept-Language.',
    resolve: (_root, _args, ctx) => ({
      country: detectCountry({ headers: ctx.headers, trustedHeader: ctx.env.TRUSTED_COUNTRY_HEADER, logger: ctx.logger }),
    }),
  }),
);
