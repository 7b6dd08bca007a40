/** The status link every email of an applicant or waitlister ends with (issue 24 §1, ADR 063). */
import type { EmailTranslate } from '../intl.ts';
import type { EmailTexts } from './layout.tsx';

type Aside = NonNullable<EmailTexts['asides']>[number];

/** "Where you stand, any time: Your status" — none for an email queued before status links existed. */
export function statusAside(t: EmailTranslate, statusUrl: string | null): Aside[] {
  return statusUrl ? [{ text: t('email.status.text'), label: t('email.status.link'), url: statusUrl }] : [];
}
