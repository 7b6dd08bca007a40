import { describe, expect, it } from 'vitest';
import { isLinkPreview } from '../app/lib/registration/link-previews.server.ts';

const open = (headers: Record<string, string>) => isLinkPreview(new Request('http://localhost/registration/activateaccount', { headers }));

describe('who opens an emailed link without reading it (issue 12 §1)', () => {
  it('knows link scanners and chat previews by their user agents', () => {
    for (const userAgent of [
      'Mozilla/5.0 (compatible; MSOffice 16; Microsoft Outlook SafeLinks)',
      'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17029; Pro)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Slack-ImgProxy (+https://api.slack.com/robots)',
      'WhatsApp/2.23.20.0 A',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'TelegramBot (like TwitterBot)',
      'curl/8.5.0',
    ]) {
      expect(open({ 'user-agent': userAgent }), userAgent).toBe(true);
    }
  });

  it('treats prefetches, prerenders and nameless clients as previews', () => {
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
    expect(open({ 'user-agent': chrome, 'sec-purpose': 'prefetch;prerender' })).toBe(true);
    expect(open({ 'user-agent': chrome, purpose: 'prefetch' })).toBe(true);
    expect(open({})).toBe(true);
  });

  it('lets people confirm: desktop and phone browsers, in-app browsers of social apps', () => {
    for (const userAgent of [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0',
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 [FBAN/FB4A;FBAV/440.0]',
    ]) {
      expect(open({ 'user-agent': userAgent }), userAgent).toBe(false);
    }
  });
});
