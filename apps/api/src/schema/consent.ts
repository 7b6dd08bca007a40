import { GraphQLError } from 'graphql';
import { CONSENT_ACTIONS, CONSENT_SOURCES } from '../db/schema.ts';
import { enforceRateLimit } from '../rate-limit.ts';
import { detectCountry } from '../services/detect-country.ts';
import { recordConsent } from '../services/record-consent.ts';
import { builder } from './builder.ts';

const ConsentActionEnum = builder.enumType('ConsentAction', {
  description: 'Which choice the visitor made.',
  values: Object.fromEntries(CONSENT_ACTIONS.map((v) => [v, { value: v }])) as Record<(typeof CONSENT_ACTIONS)[number], { value: (typeof CONSENT_ACTIONS)[number] }>,
});

const ConsentSourceEnum = builder.enumType('ConsentSource', {
  description: 'Where the choice was made: the banner, the preference centre, or the mobile app (passed to its web view).',
  values: Object.fromEntries(CONSENT_SOURCES.map((v) => [v, { value: v }])) as Record<(typeof CONSENT_SOURCES)[number], { value: (typeof CONSENT_SOURCES)[number] }>,
});

const RecordConsentInputRef = builder.inputType('RecordConsentInput', {
  description: 'One consent choice. Necessary cookies are always on and not recorded as a choice.',
  fields: (t) => ({
    consentId: t.string({ required: true, description: "The random UUID (v4) in the browser's consent cookie." }),
    action: t.field({ type: ConsentActionEnum, required: true }),
    source: t.field({ type: ConsentSourceEnum, required: true }),
    analytics: t.boolean({ required: true, description: 'Analytics granted (ignored for ACCEPT_ALL and REJECT_ALL).' }),
    marketing: t.boolean({ required: true, description: 'Marketing and personalisation granted (ignored for ACCEPT_ALL and REJECT_ALL).' }),
    version: t.int({ required: true, description: 'The revision of the consent texts the visitor saw.' }),
    language: t.string({ required: true, description: 'en, de, fr, it, nl, pl or sv (else en).' }),
    country: t.string({ required: false, description: 'A served country (ISO 3166-1 alpha-2); else the one detected from the request.' }),
  }),
});

builder.mutationField('recordConsent', (t) =>
  t.boolean({
    description:
      'Stores one consent choice with the time, the texts\' version, language and country; no IP address and no personal data. ' +
      'A consentId that is not a v4 UUID or a negative version is BAD_USER_INPUT. Rate limited per client IP (RATE_LIMITED).',
    args: { input: t.arg({ type: RecordConsentInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx.limiters.consentRecords, ctx.requestNetwork);
      const detected = detectCountry({ headers: ctx.headers, trustedHeader: ctx.env.TRUSTED_COUNTRY_HEADER, logger: ctx.logger });
      const result = await recordConsent({ db: ctx.db, now: ctx.now }, input, detected);
      if (!result.ok) throw new GraphQLError(`Invalid ${result.field}.`, { extensions: { code: 'BAD_USER_INPUT', field: result.field } });
      return true;
    },
  }),
);
