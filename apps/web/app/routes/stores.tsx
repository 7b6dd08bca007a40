import type { Route } from './+types/stores';
import { PageIntro } from '../components/page-intro.tsx';
import { pageMeta } from '../lib/page/meta.ts';
import { useT } from '../lib/page/use-root.ts';
import { localeContext } from '../lib/page/context.ts';
import { getIntl } from '../lib/i18n/intl.ts';
import { messagesOf, missingUntilLoaded } from '../lib/i18n/messages.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import type { RootData } from '../lib/page/root-data.ts';
import { STORES, hoursLines, mapLink, storesStructuredData } from '../lib/stores/stores.ts';

const CARDS = ['silver', 'gold', 'diamond'] as const;

/**
 * The stores' weekdays, opening times and countries in the page's language, written by the
 * server's Intl once: the browser's own ICU may space a range differently ("10:00 – 20:00"),
 * and the page must hydrate as rendered.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { locale } = context.get(localeContext);
  const countries = new Intl.DisplayNames([locale], { type: 'region' });
  return {
    stores: STORES.map((store) => ({ ...store, country: countries.of(store.country) ?? store.country, hours: hoursLines(store, locale) })),
  };
}

/** The page's head, and the stores described for search engines (schema.org, in the page's language). */
export const meta: Route.MetaFunction = (args) => {
  const head = pageMeta(args, { title: 'meta.stores.title', description: 'meta.stores.description' });
  const root = args.matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
  if (!root || args.error) return head;
  const intl = getIntl(root.locale, messagesOf(root.locale), missingUntilLoaded(root.locale));
  const pageUrl = `${root.publicUrl}${localizedPath(root.locale, '/stores')}`;
  return [...head, { 'script:ld+json': storesStructuredData((store) => intl.formatMessage({ id: `stores.${store.id}.name` }), pageUrl) }];
};

const CARD_STYLE: Record<(typeof CARDS)[number], string> = {
  silver: 'bg-gradient-to-br from-neutral-200 to-neutral-400 text-ink',
  gold: 'bg-gradient-to-br from-[#e9dcc0] to-[#b99a5b] text-ink',
  diamond: 'bg-gradient-to-br from-neutral-800 to-ink text-paper',
};

export default function Stores({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <article>
      <PageIntro title={t('stores.title')} lead={t('stores.lead')} />
      <ul className="mt-14 grid gap-px border border-line bg-line sm:grid-cols-3">
        {loaderData.stores.map((store) => {
          const name = t(`stores.${store.id}.name`);
          return (
            <li key={store.id} id={store.id} className="flex flex-col bg-paper p-8">
              <h2 className="display text-3xl">{name}</h2>
              <p className="mt-3 text-stone">{t(`stores.${store.id}.text`)}</p>
              <address className="mt-6 not-italic leading-relaxed">
                {store.streetAddress}
                <br />
                {store.postalCode} {store.locality}
                <br />
                {store.country}
              </address>
              <h3 className="eyebrow mt-6">{t('stores.hours')}</h3>
              <dl className="mt-2 text-sm">
                {store.hours.map((line) => (
                  <div key={line.days} className="py-1">
                    <dt className="text-stone">{line.days}</dt>
                    <dd className="tabular-nums">{line.time ?? t('stores.closed')}</dd>
                  </div>
                ))}
              </dl>
              <h3 className="eyebrow mt-6">{t('stores.entry')}</h3>
              <p className="mt-2 text-sm">{t('stores.entryCards')}</p>
              <a className="mt-6 self-start text-sm underline underline-offset-4 hover:no-underline" href={mapLink(store)} rel="noopener noreferrer">
                {t('stores.map', { store: name })}
              </a>
            </li>
          );
        })}
      </ul>
      <section aria-labelledby="cards" className="mt-16">
        <h2 id="cards" className="display text-3xl sm:text-4xl">{t('stores.cards.title')}</h2>
        <p className="mt-4 text-lg text-stone">{t('stores.cards.text')}</p>
        {/* One card a row on phones: "DIAMANTKARTE" and friends do not fit a third of 390 px. */}
        <ul className="mt-8 grid grid-cols-1 gap-4 sm:grid-cols-3">
          {CARDS.map((card) => (
            <li key={card} className={`flex aspect-[1.586] w-full items-end p-4 ${CARD_STYLE[card]}`}>
              <span className="eyebrow">{t(`stores.cards.${card}`)}</span>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
