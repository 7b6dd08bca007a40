/**
 * Who opens an emailed link without being its reader (issue 12 §1): link scanners (Outlook Safe
 * Links, Microsoft Office's prefetch, mail gateways), chat unfurls (Slack, WhatsApp, Teams,
 * Telegram, Discord…) and browsers that prerender a page. A page behind a single-use link
 * renders for them like for anyone, but never confirms by itself: only a person's browser
 * posts the confirmation (automatically when it runs the page, with a button otherwise).
 */
import { isbot } from 'isbot';

/** Microsoft's previewers isbot does not know: Office's link prefetch and Safe Links' detonation. */
const MICROSOFT_PREVIEWERS = /\b(microsoft office|msoffice|ms-office|safelinks|microsoft preview)\b/i;

/** True when the request comes from a previewer, scanner or prerender rather than a person opening the link. */
export function isLinkPreview(request: Request): boolean {
  const purpose = `${request.headers.get('sec-purpose') ?? ''} ${request.headers.get('purpose') ?? ''}`.toLowerCase();
  if (/\b(prefetch|prerender)\b/.test(purpose)) return true;
  const userAgent = request.headers.get('user-agent')?.trim() ?? '';
  // Every browser names itself; a request that does not is a script.
  if (!userAgent) return true;
  return isbot(userAgent) || MICROSOFT_PREVIEWERS.test(userAgent);
}
