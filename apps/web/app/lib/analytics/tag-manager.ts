/**
 * The tag manager (spec §5, §7.7): loaded once, only after analytics consent, from the
 * configured address (GTM_SCRIPT_URL) with the container id as parameter. An id that is not
 * `GTM-` or `G-` followed by upper-case letters and digits throws.
 */
const TAG_MANAGER_ID = /^(GTM|G)-[A-Z0-9]+$/;

export function assertTagManagerId(id: string): string {
  if (!TAG_MANAGER_ID.test(id)) throw new Error(`Invalid tag-manager id: ${JSON.stringify(id)}`);
  return id;
}

/** The script address for a container: `<scriptUrl>?id=<containerId>`. */
export function tagManagerUrl(scriptUrl: string, containerId: string): string {
  const url = new URL(scriptUrl);
  url.searchParams.set('id', assertTagManagerId(containerId));
  return url.toString();
}

let loaded = false;

/** Adds the tag manager's script to the page (once). Call only with analytics consent. */
export function loadTagManager(scriptUrl: string, containerId: string): void {
  const src = tagManagerUrl(scriptUrl, containerId);
  if (loaded || typeof document === 'undefined') return;
  loaded = true;
  window.dataLayer ??= [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}
