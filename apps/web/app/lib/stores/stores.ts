/**
 * The club's three stores (spec §1: Munich, Dornach, Vösendorf near Vienna; open to members
 * with a silver, gold or diamond card, all three admitted everywhere): where they are and
 * when they open, as data. The stores page shows it in the visitor's language (Intl for weekdays, times and
 * countries) and names it for search engines as schema.org structured data.
 */
import type { Locale } from '@velvet/i18n/locales';

/** ISO weekday: 1 Monday … 7 Sunday. */
type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

interface Hours {
  days: readonly Weekday[];
  /** Local time at the store, HH:MM. */
  opens: string;
  closes: string;
}

export interface Store {
  id: 'munich' | 'dornach' | 'voesendorf';
  streetAddress: string;
  postalCode: string;
  /** As the post writes it, in the country's language. */
  locality: string;
  country: 'DE' | 'AT';
  latitude: number;
  longitude: number;
  hours: readonly Hours[];
}

const MONDAY_TO_SATURDAY: readonly Weekday[] = [1, 2, 3, 4, 5, 6];

export const STORES: readonly Store[] = [
  {
    id: 'munich',
    streetAddress: 'Maximilianstraße 12',
    postalCode: '80539',
    locality: 'München',
    country: 'DE',
    latitude: 48.1393,
    longitude: 11.5823,
    hours: [{ days: MONDAY_TO_SATURDAY, opens: '10:00', closes: '20:00' }],
  },
  {
    id: 'dornach',
    streetAddress: 'Einsteinring 30',
    postalCode: '85609',
    locality: 'Aschheim-Dornach',
    country: 'DE',
    latitude: 48.1503,
    longitude: 11.6874,
    hours: [{ days: MONDAY_TO_SATURDAY, opens: '10:00', closes: '20:00' }],
  },
  {
    id: 'voesendorf',
    streetAddress: 'Shopping City Süd, Ringstraße 1',
    postalCode: '2334',
    locality: 'Vösendorf',
    country: 'AT',
    latitude: 48.1067,
    longitude: 16.3178,
    hours: [
      { days: [1, 2, 3, 4, 5], opens: '10:00', closes: '20:00' },
      { days: [6], opens: '09:30', closes: '18:00' },
    ],
  },
];

/** A day of a week that starts on a Monday (2024-01-01 was one), at noon UTC. */
const dayOfWeek = (day: Weekday) => new Date(Date.UTC(2024, 0, day, 12));
const clockTime = (hhmm: string) => {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return new Date(Date.UTC(2024, 0, 1, hours, minutes));
};

export interface HoursLine {
  /** "Monday–Saturday", "Saturday", "Sunday". */
  days: string;
  /** "10:00–20:00" as the language writes it; null when the store is closed. */
  time: string | null;
}

/** The store's week, Monday first: runs of days with the same hours, closed days included. */
export function hoursLines(store: Store, locale: Locale): HoursLine[] {
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  const slotOf = (day: Weekday) => store.hours.find((h) => h.days.includes(day)) ?? null;
  const lines: HoursLine[] = [];
  let start: Weekday = 1;
  for (let day = 1 as Weekday; day <= 7; day = (day + 1) as Weekday) {
    const slot = slotOf(day);
    if (day < 7 && slotOf((day + 1) as Weekday) === slot) continue;
    const days = start === day ? weekday.format(dayOfWeek(day)) : `${weekday.format(dayOfWeek(start))}–${weekday.format(dayOfWeek(day))}`;
    lines.push({ days, time: slot ? time.formatRange(clockTime(slot.opens), clockTime(slot.closes)) : null });
    start = ((day % 7) + 1) as Weekday;
  }
  return lines;
}

/** A map of the place on OpenStreetMap: a link, no third-party embed. */
export function mapLink(store: Pick<Store, 'latitude' | 'longitude'>): string {
  const { latitude: lat, longitude: lon } = store;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

const SCHEMA_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** schema.org's description of the stores, for search engines (JSON-LD). */
export function storesStructuredData(name: (store: Store) => string, pageUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@graph': STORES.map((store) => ({
      '@type': 'ClothingStore',
      '@id': `${pageUrl}#${store.id}`,
      name: `Velvet Rope ${name(store)}`,
      url: `${pageUrl}#${store.id}`,
      address: {
        '@type': 'PostalAddress',
        streetAddress: store.streetAddress,
        postalCode: store.postalCode,
        addressLocality: store.locality,
        addressCountry: store.country,
      },
      geo: { '@type': 'GeoCoordinates', latitude: store.latitude, longitude: store.longitude },
      hasMap: mapLink(store),
      openingHoursSpecification: store.hours.map((h) => ({
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: h.days.map((d) => `https://schema.org/${SCHEMA_DAYS[d - 1]}`),
        opens: h.opens,
        closes: h.closes,
      })),
    })),
  };
}
