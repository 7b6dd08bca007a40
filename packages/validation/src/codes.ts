/**
 * The admin console's invitation forms (issue 13, ADR 046): creating codes and changing a code's
 * balance and expiry. One schema per form, used by the web action and by the API, with message
 * ids of @velvet/i18n. The bounds are the CLI's (`code create`, create-registration-code.ts).
 */
import { z } from 'zod';
import { CUSTOMIZATIONS } from './customization.ts';
import { REGISTRATION_CODE_PATTERN, normalizeRegistrationCode } from './registration-code.ts';

/** The most invitations one code may grant (the CLI's bound too). */
export const CODE_BALANCE_MAX = 1_000_000;
/** The most codes one submission creates. */
export const CODES_PER_BATCH_MAX = 100;
/** A landing slug (/{slug}) a code is meant for. */
export const LANDING_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** What the console shows a code as, and filters by; the order is the order of precedence. */
export const CODE_STATES = ['revoked', 'quarantined', 'expired', 'exhausted', 'valid'] as const;
export type CodeState = (typeof CODE_STATES)[number];

const MESSAGE = {
  balance: 'admin.codes.error.balance',
  expiry: 'admin.codes.error.expiry',
  expiryPast: 'admin.codes.error.expiryPast',
  inviter: 'admin.codes.error.inviter',
  count: 'admin.codes.error.count',
  slug: 'admin.codes.error.slug',
  customization: 'admin.codes.error.customization',
  nothing: 'admin.codes.error.nothing',
  code: 'admin.codes.error.code',
  oneCode: 'admin.codes.error.oneCode',
} as const;

/** Form text or a number from the API: a whole number 0 … CODE_BALANCE_MAX. */
const balance = z.coerce
  .number({ error: MESSAGE.balance })
  .int({ error: MESSAGE.balance })
  .min(0, { error: MESSAGE.balance })
  .max(CODE_BALANCE_MAX, { error: MESSAGE.balance });

/**
 * An expiry: a date (`2027-01-31`, the end of that day in UTC) or an ISO date-time, in the future.
 * `now` is passed in so the API's injected clock decides, not the machine's.
 */
function parseExpiry(value: string, now: Date): { ok: true; at: Date } | { ok: false; messageId: string } {
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return { ok: false, messageId: MESSAGE.expiry };
  // A day that is not in the calendar (2027-02-30) is refused, not rolled over into March.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendarDay = new Date(Date.UTC(year, month - 1, day));
  if (calendarDay.getUTCFullYear() !== year || calendarDay.getUTCMonth() !== month - 1 || calendarDay.getUTCDate() !== day) {
    return { ok: false, messageId: MESSAGE.expiry };
  }
  const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T23:59:59.999Z` : text);
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() > 9999) return { ok: false, messageId: MESSAGE.expiry };
  if (at.getTime() <= now.getTime()) return { ok: false, messageId: MESSAGE.expiryPast };
  return { ok: true, at };
}

const expiry = (now: () => Date) =>
  z
    .string()
    .max(40, { error: MESSAGE.expiry })
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return undefined;
      const parsed = parseExpiry(value, now());
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: parsed.messageId });
        return z.NEVER;
      }
      return parsed.at;
    });

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** "New codes": an inviter's first name, how many codes, their balance, and the CLI's options. */
export const newCodesForm = (now: () => Date = () => new Date()) =>
  z
    .object({
      inviterName: z.string({ error: MESSAGE.inviter }).trim().min(1, { error: MESSAGE.inviter }).max(100, { error: MESSAGE.inviter }),
      count: z.preprocess(emptyToUndefined, z.coerce.number({ error: MESSAGE.count }).int({ error: MESSAGE.count }).min(1, { error: MESSAGE.count }).max(CODES_PER_BATCH_MAX, { error: MESSAGE.count }).default(1)),
      balance: z.preprocess(emptyToUndefined, balance),
      expiresAt: expiry(now),
      customization: z.preprocess(emptyToUndefined, z.enum(CUSTOMIZATIONS, { error: MESSAGE.customization }).optional()),
      landingSlug: z.preprocess(
        emptyToUndefined,
        z.string().trim().toLowerCase().regex(LANDING_SLUG_PATTERN, { error: MESSAGE.slug }).optional(),
      ),
      requiresValidityTimestamp: z.preprocess((value) => value === true || value === 'on', z.boolean()),
      // A chosen code (as `code create --code`): one code, 4–64 letters, digits or hyphens; random when absent.
      code: z.preprocess(
        emptyToUndefined,
        z.string().max(100, { error: MESSAGE.code }).transform(normalizeRegistrationCode).pipe(z.string().regex(REGISTRATION_CODE_PATTERN, { error: MESSAGE.code })).optional(),
      ),
    })
    .superRefine((value, ctx) => {
      if (value.code !== undefined && value.count !== 1) ctx.addIssue({ code: 'custom', path: ['count'], message: MESSAGE.oneCode });
    });

/** "Change balance and expiry": either or both; an empty expiry with `clearExpiry` removes it. */
export const codeChangeForm = (now: () => Date = () => new Date()) =>
  z
    .object({
      balance: z.preprocess(emptyToUndefined, balance.optional()),
      expiresAt: expiry(now),
      clearExpiry: z.preprocess((value) => value === true || value === 'on', z.boolean()),
    })
    .superRefine((value, ctx) => {
      if (value.balance === undefined && value.expiresAt === undefined && !value.clearExpiry) {
        ctx.addIssue({ code: 'custom', path: ['balance'], message: MESSAGE.nothing });
      }
    });

