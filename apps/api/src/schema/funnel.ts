import { GraphQLError } from 'graphql';
import { MAX_FUNNEL_BATCH } from '@velvet/validation/funnel';
import { enforceRateLimit } from '../rate-limit.ts';
import { detectCountry } from '../services/detect-country.ts';
import { funnelReport } from '../services/funnel-report.ts';
import type { FunnelCount, FunnelInvitationLink, FunnelReport } from '../services/funnel-report.ts';
import { recordFunnelEvents } from '../services/record-funnel-events.ts';
import { requireAdmin } from './admin.ts';
import { builder } from './builder.ts';

const FunnelEventInputRef = builder.inputType('FunnelEventInput', {
  description:
    'One first-party funnel event. Only known event names are stored; fields that do not fit their pattern are stored as null.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'A tracked event name (landing, code_entered, …, error_registration_*).' }),
    sessionId: t.string({ required: true, description: 'Random v4 UUID of the page load (never stored in the browser).' }),
    language: t.string({ required: false, description: 'en, de, fr, it, nl, pl or sv.' }),
    country: t.string({ required: false, description: 'A served country; else the one detected from the request.' }),
    variant: t.string({ required: false, description: 'Variant or customization label, e.g. social-15-percent-mov.' }),
    registrationCode: t.string({ required: false, description: 'The invitation code; stored only as the id of a known code.' }),
    landingSlug: t.string({ required: false, description: 'The campaign slug of the landing page, e.g. vip.' }),
    analyticsConsent: t.boolean({ required: false, description: 'Whether the visitor had granted analytics when the event happened.' }),
  }),
});

builder.mutationField('recordFunnelEvents', (t) =>
  t.int({
    description:
      `Stores a batch (at most ${MAX_FUNNEL_BATCH}) of first-party funnel events without personal data, each at the hour it arrived; ` +
      'returns how many were stored. Rate limited per client IP and batch (RATE_LIMITED).',
    args: { events: t.arg({ type: [FunnelEventInputRef], required: true }) },
    resolve: async (_root, { events }, ctx) => {
      await enforceRateLimit(ctx.limiters.funnelEvents, ctx.requestNetwork);
      const detected = detectCountry({ headers: ctx.headers, trustedHeader: ctx.env.TRUSTED_COUNTRY_HEADER, logger: ctx.logger });
      const result = await recordFunnelEvents({ db: ctx.db, now: ctx.now }, events, detected);
      if (!result.ok) {
        throw new GraphQLError(`At most ${MAX_FUNNEL_BATCH} events per call.`, { extensions: { code: 'BAD_USER_INPUT', field: 'events' } });
      }
      return result.stored;
    },
  }),
);

const FunnelFilterRef = builder.inputType('FunnelFilter', {
  fields: (t) => ({
    language: t.string({ required: false }),
    country: t.string({ required: false }),
    variant: t.string({ required: false }),
    registrationCodeId: t.string({ required: false, description: 'The invitation link: id of its registration code.' }),
  }),
});

const FunnelCountRef = builder.objectRef<FunnelCount>('FunnelCount');
FunnelCountRef.implement({
  fields: (t) => ({
    event: t.exposeString('event'),
    events: t.exposeInt('events'),
    sessions: t.exposeInt('sessions', { description: 'Distinct page-load sessions with this event.' }),
  }),
});

const FunnelInvitationLinkRef = builder.objectRef<FunnelInvitationLink>('FunnelInvitationLink');
FunnelInvitationLinkRef.implement({
  fields: (t) => ({
    registrationCodeId: t.exposeString('registrationCodeId'),
    code: t.exposeString('code'),
    landingSlug: t.exposeString('landingSlug', { nullable: true }),
  }),
});

const FunnelFilterOptionsRef = builder.objectRef<FunnelReport['options']>('FunnelFilterOptions');
FunnelFilterOptionsRef.implement({
  description: 'The values the filters can take (those present in the data).',
  fields: (t) => ({
    languages: t.exposeStringList('languages'),
    countries: t.exposeStringList('countries'),
    variants: t.exposeStringList('variants'),
    invitationLinks: t.field({ type: [FunnelInvitationLinkRef], resolve: (o) => o.invitationLinks }),
  }),
});

const FunnelReportRef = builder.objectRef<FunnelReport>('FunnelReport');
FunnelReportRef.implement({
  fields: (t) => ({
    steps: t.field({ type: [FunnelCountRef], description: 'The nine funnel steps of spec §4, in order.', resolve: (r) => r.steps }),
    otherEvents: t.field({ type: [FunnelCountRef], description: 'Refusals, the waiting list and the error events.', resolve: (r) => r.otherEvents }),
    sessions: t.exposeInt('sessions', { description: 'Distinct page-load sessions with any event.' }),
    options: t.field({ type: FunnelFilterOptionsRef, resolve: (r) => r.options }),
  }),
});

builder.queryField('funnelReport', (t) =>
  t.field({
    type: FunnelReportRef,
    description: 'Admin only (otherwise UNAUTHENTICATED): the first-party funnel, filtered.',
    args: { filter: t.arg({ type: FunnelFilterRef, required: false }) },
    resolve: async (_root, { filter }, ctx) => {
      await requireAdmin(ctx);
      return funnelReport(ctx.db, filter ?? {});
    },
  }),
);
