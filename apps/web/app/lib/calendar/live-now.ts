/**
 * The page's "now" for the club calendar (ADR 021), live. The first render — on the server and
 * while hydrating — uses the server's instant from the root loader, so the browser's first
 * render equals the server's HTML (no hydration mismatch, no layout shift). After hydration it
 * ticks on: the server's instant plus the time the browser's clock says has passed since, so a
 * visitor whose clock is off still sees the club's calendar, and a test's clock (Playwright's
 * `page.clock`) drives it. A page may come from a shared cache, rendered up to its cache
 * lifetime ago (ADR 053): a browser clock ahead of that by no more than the lifetime is taken
 * as the truer now. It re-renders at once after hydration, then only at the instants
 * `nextChange` names.
 */
import { useEffect, useState } from 'react';
import { SHARED_PAGE_OLDEST_MS } from '../page/page-caching.ts';

/** Farther changes are approached in daily steps (setTimeout's own limit is about 24.8 days). */
const MAX_DELAY_MS = 24 * 60 * 60 * 1000;

/**
 * @param serverNow the root loader's instant (milliseconds since the epoch)
 * @param nextChange when the page should look again after `now`; null: never. Keep it stable
 *   (a module-level function): a new function restarts the clock.
 */
export function useLiveNow(serverNow: number, nextChange: (now: number) => number | null): number {
  const [clock, setClock] = useState({ serverNow, now: serverNow });
  // A new instant from the server (the root loader ran again): start from it, as the server rendered.
  if (clock.serverNow !== serverNow) setClock({ serverNow, now: serverNow });
  useEffect(() => {
    const hydratedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (current: number) => {
      clearTimeout(timer);
      const next = nextChange(current);
      if (next !== null) timer = setTimeout(update, Math.min(Math.max(next - current, 0), MAX_DELAY_MS));
    };
    function update() {
      const anchored = serverNow + Math.max(0, Date.now() - hydratedAt);
      const current = Math.max(anchored, Math.min(Date.now(), anchored + SHARED_PAGE_OLDEST_MS));
      setClock({ serverNow, now: current });
      schedule(current);
    }
    update();
    // Timers sleep with the tab (and the laptop): catch up as soon as the page is seen again.
    const onVisible = () => {
      if (document.visibilityState === 'visible') update();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [serverNow, nextChange]);
  return clock.now;
}
