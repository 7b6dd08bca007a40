import { useWebView } from '../lib/web-view/use-web-view.ts';
import { useT } from '../lib/page/use-root.ts';

/** In the app's web view, the end of registration hands back to the app (its scheme URL). */
export function BackToApp() {
  const t = useT();
  const { active, returnUrl } = useWebView();
  if (!active || !returnUrl) return null;
  return (
    <p className="mt-10">
      <a className="btn-primary" href={returnUrl}>{t('webView.backToApp')}</a>
    </p>
  );
}
