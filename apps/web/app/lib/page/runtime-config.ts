/**
 * Runtime settings of the browser app (spec §7.1). The page starts with the values the
 * server rendered; GET /acquisition-defaults.json (credentials included) may override
 * each one, but only when it is present in the response.
 */
export interface RuntimeConfig {
  environment: string;
  gtmContainerId: string | undefined;
  acqBackendGraphqlURL: string;
}

const OVERRIDABLE = ['environment', 'gtmContainerId', 'acqBackendGraphqlURL'] as const;

export function mergeDefaults(current: RuntimeConfig, response: unknown): RuntimeConfig {
  if (!response || typeof response !== 'object') return current;
  const next = { ...current };
  for (const key of OVERRIDABLE) {
    const value = (response as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') next[key] = value;
  }
  return next;
}

/** How long the page waits for the defaults file before it keeps the server-rendered settings. */
const ACQUISITION_DEFAULTS_TIMEOUT_MS = 5000;

export async function loadAcquisitionDefaults(
  current: RuntimeConfig,
  fetchImpl: typeof fetch = fetch,
  timeoutMs: number = ACQUISITION_DEFAULTS_TIMEOUT_MS,
): Promise<RuntimeConfig> {
  try {
    const response = await fetchImpl('/acquisition-defaults.json', {
      credentials: 'include',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return response.ok ? mergeDefaults(current, await response.json()) : current;
  } catch {
    return current;
  }
}

let announce: ((config: RuntimeConfig) => void) | undefined;
const settled = new Promise<RuntimeConfig>((resolve) => {
  announce = resolve;
});
export function setRuntimeConfig(config: RuntimeConfig): void {
  announce?.(config);
}
/**
 * Resolves with the settings once the defaults file was read (the first setRuntimeConfig),
 * or after ACQUISITION_DEFAULTS_TIMEOUT_MS with the server's: whatever talks to the API from
 * the browser (the tag manager's id, the websocket's address) waits for it.
 */
export function whenRuntimeConfig(): Promise<RuntimeConfig> {
  return settled;
}
