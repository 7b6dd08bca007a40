/**
 * Sending reports from a server: a JSON POST to ERROR_REPORTING_URL (a plain collector, or
 * a Sentry store endpoint with `?sentry_key=…` in the URL), 5 s time-out, failures counted
 * and logged at most once a minute, never thrown.
 */
export interface NodeTransportOptions {
  url: string;
  timeoutMs?: number;
  onFailure?: (error: unknown) => void;
  fetchImpl?: typeof fetch;
}

export function httpTransport({ url, timeoutMs = 5_000, onFailure, fetchImpl = fetch }: NodeTransportOptions) {
  let lastWarning = 0;
  return async (body: string): Promise<void> => {
    try {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`error-reporting service answered ${response.status}`);
    } catch (error) {
      if (Date.now() - lastWarning > 60_000) {
        lastWarning = Date.now();
        onFailure?.(error);
      }
    }
  };
}
