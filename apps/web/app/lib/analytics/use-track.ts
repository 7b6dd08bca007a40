import { useCallback, useEffect, useRef } from 'react';
import { track, trackStep, type FunnelEvent, type TrackedEvent } from './analytics.ts';

/**
 * Pushes `event` once when the page shows (null: nothing to track). Returns a function
 * that pushes it at once if that has not happened yet: a handler calls it before its own
 * event, so the page's event comes first even when the visitor acted before the page's
 * effects ran (an input typed while the page was still hydrating).
 */
export function useTrackOnce(event: TrackedEvent | null): () => void {
  const sent = useRef(false);
  const key = event ? JSON.stringify(event) : null;
  const send = useCallback(() => {
    if (!key || sent.current) return;
    sent.current = true;
    track(JSON.parse(key) as TrackedEvent);
  }, [key]);
  useEffect(send, [send]);
  return send;
}

/** `trackStep(event)` when the page shows (null: nothing); see analytics.ts. */
export function useTrackStep(event: FunnelEvent | null): void {
  const key = event ? JSON.stringify(event) : null;
  useEffect(() => {
    if (key) trackStep(JSON.parse(key) as FunnelEvent);
  }, [key]);
}
