import { describe, expect, it } from 'vitest';
import { DENIAL_MAX_AGE_MS, externalReferrer, freshDenial, invitationReferrer, withDenial } from '../app/lib/registration/arrival.server.ts';
import { landingOptions, shopLink, sourcePathFrom } from '../app/lib/landing/landing-variants.ts';

const PUBLIC_URL = 'https://club.example';
const COUPON = 'https://www.mydealz.de/deals/velvet-rope-2291874?utm_source=share';

function get(url: string, referer?: string): Request {
  return new Request(url, referer ? { headers: { referer } } : {});
}

describe('the arrival rule', () => {
  it('reads the full Referer of another site, never our own pages or what is not a web address', () => {
    expect(externalReferrer(get('https://club.example/?rc=A', COUPON), PUBLIC_URL)).toBe(COUPON);
    expect(externalReferrer(get('https://club.example/?rc=A', 'https://club.example/about-us'), PUBLIC_URL)).toBeNull();
    // Behind a proxy the request's own address may differ from the public one.
    expect(externalReferrer(get('http://127.0.0.1:3000/?rc=A', 'https://club.example/de'), PUBLIC_URL)).toBeNull();
    expect(externalReferrer(get('https://club.example/?rc=A', 'android-app://com.google.android.gm/'), PUBLIC_URL)).toBeNull();
    expect(externalReferrer(get('https://club.example/?rc=A'), PUBLIC_URL)).toBeNull();
  });

  it('keeps the referrer an invitation arrived with for every later step, and only for that invitation', () => {
    const arrived = invitationReferrer(get('https://club.example/?rc=welcome-1', COUPON), PUBLIC_URL, {}, 'WELCOME-1');
    expect(arrived).toEqual({ referrer: COUPON, arrival: { registrationCode: 'WELCOME-1', referrer: COUPON } });
    const flow = { arrival: arrived.arrival! };
    // A later post from our own form: the arrival decides, not the form's Referer.
    const post = new Request('https://club.example/registration/formstarted?rc=WELCOME-1', { method: 'POST', headers: { referer: 'https://club.example/registration/formstarted?rc=WELCOME-1' } });
    expect(invitationReferrer(post, PUBLIC_URL, flow, 'welcome-1')).toEqual({ referrer: COUPON });
    // The same link opened again without a Referer (pasted into a new tab) stays refused.
    expect(invitationReferrer(get('https://club.example/?rc=WELCOME-1'), PUBLIC_URL, flow, 'WELCOME-1')).toEqual({ referrer: COUPON });
    // Another invitation has its own arrival.
    expect(invitationReferrer(get('https://club.example/?rc=OTHER'), PUBLIC_URL, flow, 'OTHER')).toEqual({ referrer: null });
    // A Referer that came with another code in the URL is not this code's arrival.
    expect(invitationReferrer(get('https://club.example/?rc=OTHER', 'https://blog.example/'), PUBLIC_URL, flow, 'WELCOME-1')).toEqual({ referrer: COUPON });
  });

  it('lets the deny page act only on a refusal the server made in the last two minutes', () => {
    const now = Date.UTC(2026, 10, 24, 12);
    const flow = withDenial({ registrationEmail: 'a@example.com' }, 'welcome-1', COUPON, now);
    expect(flow).toMatchObject({ registrationEmail: 'a@example.com', arrival: { registrationCode: 'WELCOME-1', referrer: COUPON } });
    expect(freshDenial(flow, now + 1000)).toEqual({ registrationCode: 'WELCOME-1', referrer: COUPON });
    expect(freshDenial(flow, now + DENIAL_MAX_AGE_MS + 1)).toBeNull();
    expect(freshDenial({}, now)).toBeNull();
  });
});

describe('landing options', () => {
  it('start a lean registration at leanStep1 (leanStep2 follows its first step)', () => {
    expect(landingOptions('lean').registrationFlow).toBe('leanStep1');
    expect(landingOptions('social').registrationFlow).toBe('socialRegistration');
    expect(landingOptions(null).registrationFlow).toBe('default');
  });

  it('take a sourcePath only when it is a page of the shop', () => {
    expect(sourcePathFrom('/p/silk-slip-dress-8841?size=38')).toBe('/p/silk-slip-dress-8841?size=38');
    expect(sourcePathFrom('/women/dresses#top')).toBe('/women/dresses');
    for (const hostile of ['//evil.example/login', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/p/a b', '/p/\u0000', `/${'a'.repeat(400)}`, '', null]) {
      expect(sourcePathFrom(hostile), String(hostile)).toBeNull();
    }
    expect(shopLink('/p/silk-slip-dress-8841')).toBe('https://www.velvetrope.example/p/silk-slip-dress-8841');
    expect(shopLink('//evil.example')).toBe('https://www.velvetrope.example/login');
    expect(shopLink(null)).toBe('https://www.velvetrope.example/login');
  });
});
