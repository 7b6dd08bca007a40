import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as MessagesModuleType from '../app/lib/i18n/messages.ts';

/**
 * The browser's catalog after hydration (ADR 038): a page that had every message it shows is
 * not rendered again when the language's whole catalog arrives (on a phone a whole-page render
 * is a long task the visitor feels), one that lacked a message is.
 */
type MessagesModule = typeof MessagesModuleType;

const literal = (text: string) => [{ type: 0, value: text }];
const catalogRequests: string[] = [];

async function browserPage(locale: string): Promise<MessagesModule> {
  vi.resetModules();
  const block = JSON.stringify({ locale, version: 'v1', messages: { 'landing.title': literal('Willkommen') } });
  vi.stubGlobal('window', {});
  vi.stubGlobal('document', { getElementById: (id: string) => (id === 'page-messages' ? { textContent: block } : null) });
  vi.stubGlobal('fetch', async (url: string) => {
    catalogRequests.push(url);
    return Response.json({ 'landing.title': literal('Willkommen'), 'consent.title': literal('Ihre Privatsphäre') });
  });
  return import('../app/lib/i18n/messages.ts');
}

beforeEach(() => {
  catalogRequests.length = 0;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the whole catalog after hydration', () => {
  it('fills in the page’s own messages without rendering the page again', async () => {
    const messages = await browserPage('de');
    const rendered = vi.fn();
    messages.subscribeMessages(rendered);
    const before = messages.browserMessages('de');
    await messages.pageCatalogReady();
    expect(catalogRequests).toEqual(['/messages/de.json?v=v1']);
    expect(rendered).not.toHaveBeenCalled();
    // The very object the page formats with, now with what later parts (a pop-up) will ask for.
    expect(messages.browserMessages('de')).toBe(before);
    expect(messages.browserMessages('de')['consent.title']).toEqual(literal('Ihre Privatsphäre'));
  });

  it('renders the page again when a render lacked a message', async () => {
    const messages = await browserPage('de');
    const rendered = vi.fn();
    messages.subscribeMessages(rendered);
    const before = messages.browserMessages('de');
    expect(messages.missingUntilLoaded('de')()).toBe(true);
    await messages.pageCatalogReady();
    expect(rendered).toHaveBeenCalledTimes(1);
    // A new object: the page's formatter is made anew, so every part showing a message renders.
    expect(messages.browserMessages('de')).not.toBe(before);
    expect(messages.browserMessages('de')['consent.title']).toEqual(literal('Ihre Privatsphäre'));
    expect(messages.missingUntilLoaded('de')()).toBe(false);
  });

  it('renders the page again for another language’s catalog', async () => {
    const messages = await browserPage('de');
    const rendered = vi.fn();
    messages.subscribeMessages(rendered);
    expect(messages.browserMessages('pl')).toEqual({});
    await messages.loadCatalog('pl');
    expect(catalogRequests).toEqual(['/messages/pl.json?v=v1']);
    expect(rendered).toHaveBeenCalledTimes(1);
    expect(messages.browserMessages('pl')['consent.title']).toBeDefined();
  });
});
