import { useEffect, useRef } from 'react';
import { track, type TrackedEvent } from './analytics.ts';

/** Pushes `event` once when the page shows (null: nothing to track). */
export function useTrackOnce(event: TrackedEvent | null): void {
  const sent = useRef(false);
  const key = event ? JSON.stringify(event) : null;
  useEffect(() => {
    if (!key || sent.current) return;
    sent.current = true;
    track(JSON.parse(key) as TrackedEvent);
  }, [key]);
}
