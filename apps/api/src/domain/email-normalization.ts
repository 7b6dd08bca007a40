/**
 * One mailbox, however it is written (issue 12 §2): per-address limits count the mailbox, not
 * its spellings. Lower case; the `+tag` of the local part goes (every large provider delivers
 * `anna+1@` to `anna@`); Gmail also ignores dots and answers to googlemail.com.
 */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  local = local.split('+')[0] || local;
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    local = local.replaceAll('.', '');
    domain = dotless;
  }
  return `${local}@${domain}`;
}
