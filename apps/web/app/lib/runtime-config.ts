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

export async function loadAcquisitionDefaults(current: RuntimeConfig, fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const response = await fetchImpl('/acquisition-defaults.json', { credentials: 'include', headers: { accept: 'application/json' } });
    return response.ok ? mergeDefaults(current, await response.json()) : current;
  } catch {
    return current;
  }
}

let active: RuntimeConfig | undefined;
/** The settings in force in this browser tab (after the defaults file was read). */
export function runtimeConfig(): RuntimeConfig | undefined {
  return active;
}
let announce: ((config: RuntimeConfig) => void) | undefined;
const settled = new Promise<RuntimeConfig>((resolve) => {
  announce = resolve;
});
export function setRuntimeConfig(config: RuntimeConfig): void {
  active = config;
  announce?.(config);
}
/** Resolves with the settings once the defaults file was read (the first setRuntimeConfig). */
export function whenRuntimeConfig(): Promise<RuntimeConfig> {
  return settled;
}
