import { Link } from 'react-router';
import { DELIVERY_PARTNERS, EXTERNAL_LINKS, PAYMENT_METHODS, SOCIAL_LINKS } from '../lib/external-links.ts';
import { useLocalPath, useRootData, useT } from '../lib/page/use-root.ts';
import { useWebView } from '../lib/web-view/use-web-view.ts';
import { LanguageSelector } from './language-selector.tsx';
import { Logo } from './logo.tsx';

function External({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a href={href} className="hover:underline underline-offset-4" rel="noopener">
      {children}
    </a>
  );
}

export function SiteFooter() {
  const t = useT();
  const path = useLocalPath();
  const { year, consent } = useRootData();
  const webView = useWebView();
  if (webView.active) {
    // Inside the app: nothing that leaves it, and the app runs its own consent dialog.
    return (
      <footer className="bg-ink text-paper">
        <div className="mx-auto flex max-w-6xl flex-wrap justify-between gap-10 px-6 py-12">
          <LanguageSelector inverse />
          <nav aria-label={t('footer.company')}>
            <ul className="flex gap-6 text-sm text-paper/85">
              <li><Link className="hover:underline underline-offset-4" to={path('/about-us')}>{t('footer.about')}</Link></li>
              <li><Link className="hover:underline underline-offset-4" to={path('/stores')}>{t('footer.stores')}</Link></li>
            </ul>
          </nav>
        </div>
      </footer>
    );
  }
  return (
    <footer className="bg-ink text-paper">
      <div className="mx-auto grid max-w-6xl gap-12 px-6 py-16 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-8">
          <p>
            <Logo inverse />
          </p>
          <LanguageSelector inverse />
        </div>
        <nav aria-label={t('footer.company')}>
          <h2 className="eyebrow mb-4">{t('footer.company')}</h2>
          <ul className="space-y-3 text-sm text-paper/85">
            <li><Link className="hover:underline underline-offset-4" to={path('/about-us')}>{t('footer.about')}</Link></li>
            <li><Link className="hover:underline underline-offset-4" to={path('/stores')}>{t('footer.stores')}</Link></li>
            <li><External href={EXTERNAL_LINKS.jobs}>{t('footer.jobs')}</External></li>
            <li><External href={EXTERNAL_LINKS.sustainability}>{t('footer.sustainability')}</External></li>
          </ul>
        </nav>
        <nav aria-label={t('footer.legal')}>
          <h2 className="eyebrow mb-4">{t('footer.legal')}</h2>
          <ul className="space-y-3 text-sm text-paper/85">
            {consent.cmp && (
              <li>
                {/* Opens the consent manager's preference centre (data-cc is its documented hook); absent when the consent manager is off. */}
                <button type="button" data-cc="show-preferencesModal" className="cursor-pointer hover:underline underline-offset-4">
                  {t('footer.cookieSettings')}
                </button>
              </li>
            )}
            <li><External href={EXTERNAL_LINKS.privacy}>{t('footer.privacy')}</External></li>
            <li><Link className="hover:underline underline-offset-4" to={path('/my-data')}>{t('footer.myData')}</Link></li>
            <li><External href={EXTERNAL_LINKS.terms}>{t('footer.terms')}</External></li>
            <li><External href={EXTERNAL_LINKS.imprint}>{t('footer.imprint')}</External></li>
          </ul>
        </nav>
        <div className="space-y-8">
          <nav aria-label={t('footer.social')}>
            <h2 className="eyebrow mb-4">{t('footer.social')}</h2>
            <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm text-paper/85">
              {SOCIAL_LINKS.map((s) => (
                <li key={s.name}><External href={s.href}>{s.name}</External></li>
              ))}
            </ul>
          </nav>
          <section aria-labelledby="footer-payment">
            <h2 id="footer-payment" className="eyebrow mb-3">{t('footer.payment')}</h2>
            <ul aria-labelledby="footer-payment" className="flex flex-wrap gap-2 text-xs text-paper/85">
              {PAYMENT_METHODS.map((name) => (
                <li key={name} className="whitespace-nowrap border border-paper/25 px-2 py-1">{name}</li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="footer-delivery">
            <h2 id="footer-delivery" className="eyebrow mb-3">{t('footer.delivery')}</h2>
            <ul aria-labelledby="footer-delivery" className="flex flex-wrap gap-2 text-xs text-paper/85">
              {DELIVERY_PARTNERS.map((name) => (
                <li key={name} className="whitespace-nowrap border border-paper/25 px-2 py-1">{name}</li>
              ))}
            </ul>
          </section>
        </div>
      </div>
      <div className="border-t border-paper/15">
        <p className="mx-auto max-w-6xl px-6 py-6 text-xs text-paper/70">{t('footer.copyright', { year })}</p>
      </div>
    </footer>
  );
}
