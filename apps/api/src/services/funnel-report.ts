/**
 * Query.funnelReport (admin only): how many events and page-load sessions reached each
 * step of the registration funnel, plus the other tracked events, filtered by language,
 * country, variant and invitation link (registration code). Also lists the values the
 * filters can take, so the admin page can offer them.
 */
import { FUNNEL_STEPS, OTHER_TRACKED_EVENTS } from '@velvet/validation/funnel';
import type { Db } from '../db/connect.ts';

export interface FunnelFilter {
  language?: string | null;
  country?: string | null;
  variant?: string | null;
  registrationCodeId?: string | null;
}

export interface FunnelCount {
  event: string;
  events: number;
  sessions: number;
}

export interface FunnelInvitationLink {
  registrationCodeId: string;
  code: string;
  landingSlug: string | null;
}

export interface FunnelReport {
  steps: FunnelCount[];
  otherEvents: FunnelCount[];
  /** Distinct page-load sessions with any event (after the filter). */
  sessions: number;
  options: { languages: string[]; countries: string[]; variants: string[]; invitationLinks: FunnelInvitationLink[] };
}

export async function funnelReport(db: Db, filter: FunnelFilter = {}): Promise<FunnelReport> {
  let query = db.selectFrom('funnel_events');
  if (filter.language) query = query.where('language', '=', filter.language);
  if (filter.country) query = query.where('country', '=', filter.country);
  if (filter.variant) query = query.where('variant', '=', filter.variant);
  if (filter.registrationCodeId) query = query.where('registration_code_id', '=', filter.registrationCodeId);

  const [rows, total] = await Promise.all([
    query
      .select((eb) => [
        'event',
        eb.fn.countAll<number | string>().as('event_count'),
        eb.fn.count<number | string>('session_id').distinct().as('session_count'),
      ])
      .groupBy('event')
      .execute(),
    query.select((eb) => eb.fn.count<number | string>('session_id').distinct().as('session_count')).executeTakeFirst(),
  ]);
  const byEvent = new Map(rows.map((r) => [r.event, { events: Number(r.event_count), sessions: Number(r.session_count) }]));
  const count = (event: string): FunnelCount => ({ event, ...(byEvent.get(event) ?? { events: 0, sessions: 0 }) });

  const distinct = async (column: 'language' | 'country' | 'variant') =>
    (await db.selectFrom('funnel_events').select(column).distinct().where(column, 'is not', null).orderBy(column).execute())
      .map((r) => r[column])
      .filter((v): v is string => v !== null);
  const [languages, countries, variants, links] = await Promise.all([
    distinct('language'),
    distinct('country'),
    distinct('variant'),
    db
      .selectFrom('registration_codes')
      .select(['id', 'code', 'landing_slug'])
      .where('id', 'in', db.selectFrom('funnel_events').select('registration_code_id').where('registration_code_id', 'is not', null).distinct().$castTo<string>())
      .orderBy('code')
      .execute(),
  ]);

  return {
    steps: FUNNEL_STEPS.map(count),
    otherEvents: OTHER_TRACKED_EVENTS.map(count),
    sessions: Number(total?.session_count ?? 0),
    options: {
      languages,
      countries,
      variants,
      invitationLinks: links.map((l) => ({ registrationCodeId: l.id, code: l.code, landingSlug: l.landing_slug })),
    },
  };
}
