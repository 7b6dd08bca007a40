import type { Route } from './+types/stores';
import { PageIntro } from '../components/page-intro.tsx';
import { pageMeta } from '../lib/page/meta.ts';
import { useT } from '../lib/page/use-root.ts';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'meta.stores.title', description: 'meta.stores.description' });

const STORES = ['munich', 'dornach', 'voesendorf'] as const;
const CARDS = ['silver', 'gold', 'diamond'] as const;
const CARD_STYLE: Record<(typeof CARDS)[number], string> = {
  silver: 'bg-gradient-to-br from-neutral-200 to-neutral-400 text-ink',
  gold: 'bg-gradient-to-br from-[#e9dcc0] to-[#b99a5b] text-ink',
  diamond: 'bg-gradient-to-br from-neutral-800 to-ink text-paper',
};

export default function Stores() {
  const t = useT();
  return (
    <article>
      <PageIntro title={t('stores.title')} lead={t('stores.lead')} />
      <ul className="mt-14 grid gap-px border border-line bg-line sm:grid-cols-3">
        {STORES.map((store) => (
          <li key={store} className="bg-paper p-8">
            <h2 className="display text-3xl">{t(`stores.${store}.name`)}</h2>
            <p className="mt-3 text-stone">{t(`stores.${store}.text`)}</p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="cards" className="mt-16">
        <h2 id="cards" className="display text-3xl sm:text-4xl">{t('stores.cards.title')}</h2>
        <p className="mt-4 text-lg text-stone">{t('stores.cards.text')}</p>
        {/* One card a row on phones: "DIAMANTKARTE" and friends do not fit a third of 390 px. */}
        <ul className="mt-8 grid grid-cols-1 gap-4 sm:grid-cols-3">
          {CARDS.map((card) => (
            <li key={card} className={`flex aspect-[1.586] w-full max-w-xs items-end rounded-md p-4 shadow-sm sm:max-w-none ${CARD_STYLE[card]}`}>
              <span className="eyebrow">{t(`stores.cards.${card}`)}</span>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
