/**
 * The visitor's own connection drops while a form is on its way (issue 20 §3, spec §8 "network
 * issue"): the request never reached us, so it is neither our error nor theirs to type again.
 * A page's `clientAction` sends its form through `sentOrLost`: on a lost connection the page
 * stays as it is — every field as typed — and the form says, in the visitor's language, to check
 * the connection and send again. Nothing revalidates after such an answer (it would fail the
 * same way and replace the page with an error).
 */
import type { ShouldRevalidateFunctionArgs } from 'react-router';

/** A fetch that never reached the server: the browser is offline, or the connection dropped. */
export function isConnectionFailure(error: unknown): boolean {
  return (
    typeof window !== 'undefined' &&
    error instanceof TypeError &&
    // Chromium "Failed to fetch", Firefox "NetworkError when attempting…", Safari "Load failed".
    (!navigator.onLine || /fetch|network|load failed/i.test(error.message))
  );
}

/** Spec §8's message for a request that did not get through (a page's notice). */
export const CONNECTION_LOST: { id: string; values?: Record<string, string | number> } = { id: 'error.connection' };

/** What a form's answer made in the browser carries: the page keeps its data. */
export const LOST = { connectionLost: true } as const;

/** The server's answer to the form, or null when the visitor's connection lost it. */
export async function sentOrLost<T>(serverAction: () => Promise<T>): Promise<T | null> {
  try {
    return await serverAction();
  } catch (error) {
    if (isConnectionFailure(error)) return null;
    throw error;
  }
}

/** Every route's loaders keep their data after a form the connection lost (root, layouts, pages). */
export function keepDataWhenLost({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  const lost = typeof actionResult === 'object' && actionResult !== null && 'connectionLost' in actionResult;
  return lost ? false : defaultShouldRevalidate;
}
