import { describe, expect, it } from 'vitest';
import { appReturnUrl, hasNativeBridge, isWebViewRedirect, parseRedirectUrl } from '../app/lib/web-view/web-view.ts';

const policy = { appSchemePrefix: 'velvetrope://', ownOrigins: ['https://www.velvetrope.example', 'http://127.0.0.1:3000'] };

describe('app web view', () => {
  it('is on when redirectUrl carries a redirect_uri into the app', () => {
    const value = encodeURIComponent('https://www.velvetrope.example/oauth?redirect_uri=velvetrope://registered&x=1');
    const parsed = parseRedirectUrl(value, policy);
    expect(isWebViewRedirect(parsed, policy)).toBe(true);
    expect(appReturnUrl(parsed, policy)).toBe('velvetrope://registered');
  });

  it('accepts the app scheme itself and our own origins, nothing else', () => {
    expect(appReturnUrl(parseRedirectUrl('velvetrope://home', policy), policy)).toBe('velvetrope://home');
    expect(isWebViewRedirect(parseRedirectUrl('https://www.velvetrope.example/x', policy), policy)).toBe(false);
    expect(parseRedirectUrl('https://evil.example/?redirect_uri=https://evil.example/x', policy)).toBeNull();
    expect(parseRedirectUrl('https://evil.example/x', policy)).toBeNull();
    expect(parseRedirectUrl('javascript:alert(1)', policy)).toBeNull();
    expect(parseRedirectUrl('javascript:alert(1)?redirect_uri=velvetrope://x', policy)).toBeNull();
    expect(parseRedirectUrl('//evil.example', policy)).toBeNull();
  });

  it('is on for any web address whose redirect_uri leads into the app, and hands back only to the app', () => {
    // Spec §4: the app's login service on another host, say.
    const parsed = parseRedirectUrl(encodeURIComponent('https://login.partner.example/authorize?redirect_uri=velvetrope://registered'), policy);
    expect(isWebViewRedirect(parsed, policy)).toBe(true);
    expect(appReturnUrl(parsed, policy)).toBe('velvetrope://registered');
  });

  it('logs what it cannot parse', () => {
    const logged: string[] = [];
    expect(parseRedirectUrl('%E0%A4%A', policy, (message) => logged.push(message))).toBeNull();
    expect(logged).toEqual(['Error parsing redirectUrl:']);
  });

  it('sees the native bridges', () => {
    expect(hasNativeBridge({ VelvetAppBridge: {} } as never)).toBe(true);
    expect(hasNativeBridge({ webkit: { messageHandlers: { velvetApp: {} } } } as never)).toBe(true);
    expect(hasNativeBridge({} as never)).toBe(false);
  });
});
