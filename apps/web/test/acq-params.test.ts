import { describe, expect, it } from 'vitest';
import { expandAcqParams, packAcqParams, unpackAcqParams } from '../app/lib/acq-params.ts';

describe('acqParams', () => {
  it('packs all parameters into one URL-safe value and back', () => {
    const params = new URLSearchParams({ rc: 'WELCOME2026', redirectUrl: 'myapp://done?x=ü', lang: 'de' });
    const packed = packAcqParams(params);
    expect(packed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(unpackAcqParams(packed)?.toString()).toBe(params.toString());
  });

  it('also reads standard base64, with its padding, encoded or not', () => {
    const standard = Buffer.from('rc=WELCOME2026&lang=de').toString('base64');
    expect(standard).toBe('cmM9V0VMQ09NRTIwMjYmbGFuZz1kZQ==');
    expect(expandAcqParams(new URL(`http://x/?acqParams=${encodeURIComponent(standard)}`))).toBe('/?rc=WELCOME2026&lang=de');
    expect(expandAcqParams(new URL(`http://x/?acqParams=${standard}`))).toBe('/?rc=WELCOME2026&lang=de');
    const withPlus = Buffer.from('redirectUrl=>>>').toString('base64');
    expect(withPlus).toContain('+');
    expect(unpackAcqParams(withPlus.replace(/\+/g, ' '))?.get('redirectUrl')).toBe('>>>');
  });

  it('expands into the address, explicit parameters winning', () => {
    const packed = packAcqParams(new URLSearchParams({ rc: 'A', lang: 'de' }));
    expect(expandAcqParams(new URL(`http://x/fr?acqParams=${packed}&lang=it#faq`))).toBe('/fr?rc=A&lang=it#faq');
  });

  it('drops a damaged value instead of failing', () => {
    expect(unpackAcqParams('%%%')).toBeUndefined();
    expect(expandAcqParams(new URL('http://x/?acqParams=!!&rc=B'))).toBe('/?rc=B');
    expect(expandAcqParams(new URL('http://x/?rc=B'))).toBeUndefined();
  });
});
