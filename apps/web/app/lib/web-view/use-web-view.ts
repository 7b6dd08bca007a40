import { useEffect, useState } from 'react';
import { useRootData } from '../page/use-root.ts';
import { hasNativeBridge } from './web-view.ts';

/** The web-view flag: what the server saw in redirectUrl, or the app's native bridge. */
export function useWebView(): { active: boolean; returnUrl: string | null } {
  const { webView } = useRootData();
  const [bridge, setBridge] = useState(false);
  useEffect(() => {
    setBridge(hasNativeBridge(window));
  }, []);
  return { active: webView.active || bridge, returnUrl: webView.returnUrl };
}
