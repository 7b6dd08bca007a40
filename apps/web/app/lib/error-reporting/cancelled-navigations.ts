/**
 * A navigation or form submission that a newer one supersedes is cancelled: React Router
 * aborts its request, and in some paths (single fetch, React Router 8.4; upstream
 * remix-run/react-router#14203, PR #14761) the discarded promise of the superseded
 * submission rejects with that AbortError although nobody awaits it. A cancellation is
 * not a failure: it is neither logged as an uncaught error nor sent to error reporting.
 */
export function isCancellation(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'AbortError';
}

/** Call before any other `unhandledrejection` listener (entry.client.tsx). */
export function ignoreCancelledNavigations(target: Pick<Window, 'addEventListener'> = window): void {
  target.addEventListener('unhandledrejection', (event) => {
    if (isCancellation(event.reason)) event.preventDefault();
  });
}
