/**
 * The page's module preloads at low priority (ADR 037). React Router's <Scripts> preloads the
 * entry, the framework and the page's modules with the browser's default priority for
 * scripts (high), which puts 140 kB of JavaScript ahead of the stylesheet, the fonts and the
 * consent banner although the server-rendered page needs none of it to paint (forms work
 * without it). React preloads its own bootstrap modules with fetchpriority="low"; this does
 * the same for React Router's `<link rel="modulepreload"` tags in the document's <head>
 * (they are all there: React hoists them into the head).
 */
const TAG = '<link rel="modulepreload"';
const LOW = '<link rel="modulepreload" fetchpriority="low"';
const HEAD_END = '</head>';

export function lowPriorityModulePreloads(html: string): string {
  const end = html.indexOf(HEAD_END);
  return end < 0 ? html.replaceAll(TAG, LOW) : html.slice(0, end).replaceAll(TAG, LOW) + html.slice(end);
}
