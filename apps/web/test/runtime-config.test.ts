import { describe, expect, it } from 'vitest';
import { loadAcquisitionDefaults, mergeDefaults, type RuntimeConfig } from '../app/lib/page/runtime-config.ts';

const current: RuntimeConfig = { environment: 'local', gtmContainerId: undefined, acqBackendGraphqlURL: 'http://localhost:9090/graphql' };

describe('acquisition defaults', () => {
  it('override a setting only when the response has it', () => {
    expect(mergeDefaults(current, { environment: 'production' })).toEqual({ ...current, environment: 'production' });
    expect(mergeDefaults(current, { gtmContainerId: 'GTM-ABC1', acqBackendGraphqlURL: '' })).toEqual({ ...current, gtmContainerId: 'GTM-ABC1' });
    expect(mergeDefaults(current, null)).toEqual(current);
  });

  it('are fetched with credentials and ignored when the request fails', async () => {
    const calls: RequestInit[] = [];
    const ok = (async (_url: string, init: RequestInit) => {
      calls.push(init);
      return Response.json({ environment: 'staging' });
    }) as typeof fetch;
    expect((await loadAcquisitionDefaults(current, ok)).environment).toBe('staging');
    expect(calls[0]?.credentials).toBe('include');
    const down = (async () => {
      throw new TypeError('network');
    }) as typeof fetch;
    expect(await loadAcquisitionDefaults(current, down)).toEqual(current);
  });

  it('keep the server-rendered settings when the file does not come in time', async () => {
    const hanging = ((_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch;
    expect(await loadAcquisitionDefaults(current, hanging, 20)).toEqual(current);
  });
});
