/**
 * What makes a member active, in the caller's transaction: shared by the emailed link
 * (activate-account.ts) and by a social sign-up whose provider vouches for the address
 * (register-member.ts). The caller holds the lock on the code's row (taken first) and on
 * the member's row, so balance and status are read and written without a race.
 */
import type { Kysely } from 'kysely';
import { WELCOME_VOUCHER_CURRENCY, WELCOME_VOUCHER_VALIDITY_DAYS, voucherFor } from '@velvet/validation/customization';
import type { Customization } from '@velvet/validation/customization';
import { isLocale } from '@velvet/i18n/locales';
import type { Database } from '../db/schema.ts';
import { enqueueEmail } from '../mail/outbox.ts';
import { generateVoucherCode } from './welcome-voucher.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';

export interface IssuedWelcomeVoucher {
  percent: number;
  minimumOrderValue: number | null;
  currency: string;
  validUntil: string;
  code: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The invitation is spent: the code's balance one lower, never below 0 (a pending member's
 * place was held, so activation still succeeds when the balance is meanwhile 0).
 */
export async function spendInvitation(trx: Kysely<Database>, registrationCodeId: string | null): Promise<void> {
  if (!registrationCodeId) return;
  await trx
    .updateTable('registration_codes')
    .set((eb) => ({ balance: eb('balance', '-', 1) }))
    .where('id', '=', registrationCodeId)
    .where('balance', '>', 0)
    .execute();
}

/** The first-order voucher, by the code's customization (welcome-voucher.ts), valid 14 days; its welcome email queued. */
export async function grantWelcomeVoucher(
  trx: Kysely<Database>,
  memberId: string,
  customization: Customization | null,
  now: Date,
): Promise<IssuedWelcomeVoucher> {
  const terms = voucherFor(customization);
  const voucher: IssuedWelcomeVoucher = {
    percent: terms.percent,
    minimumOrderValue: terms.minimumOrderValue,
    currency: WELCOME_VOUCHER_CURRENCY,
    validUntil: new Date(now.getTime() + WELCOME_VOUCHER_VALIDITY_DAYS * DAY_MS).toISOString(),
    code: generateVoucherCode(),
  };
  await trx
    .insertInto('welcome_vouchers')
    .values({
      member_id: memberId,
      code: voucher.code,
      percent: voucher.percent,
      minimum_order_value: voucher.minimumOrderValue,
      currency: voucher.currency,
      valid_until: voucher.validUntil,
      created_at: now.toISOString(),
    })
    .execute();
  await queueWelcomeEmail(trx, memberId, voucher, now);
  return voucher;
}

/**
 * The welcome email with the voucher (issue 22 §2, ADR 058), queued in the transaction that grants
 * it: one voucher, one email. Read after the caller's writes, so it greets by the name and in the
 * language the member has now.
 */
async function queueWelcomeEmail(trx: Kysely<Database>, memberId: string, voucher: IssuedWelcomeVoucher, now: Date): Promise<void> {
  const member = await trx.selectFrom('members').select(['email', 'first_name', 'language']).where('id', '=', memberId).executeTakeFirstOrThrow();
  await enqueueEmail(
    trx,
    {
      template: 'welcome',
      recipient: member.email,
      locale: isLocale(member.language) ? member.language : 'en',
      payload: {
        firstName: member.first_name || null,
        voucher: {
          code: voucher.code,
          percent: voucher.percent,
          minimumOrderValue: voucher.minimumOrderValue,
          currency: voucher.currency,
          validUntil: voucher.validUntil,
        },
      },
    },
    now,
  );
}

/**
 * A pending member becomes active: status and time, every unused activation link
 * superseded (a link already marked used stays used), the invitation spent, the voucher granted.
 */
export async function activatePendingMember(
  trx: Kysely<Database>,
  member: { id: string; registrationCodeId: string | null; customization: Customization | null },
  now: Date,
): Promise<IssuedWelcomeVoucher> {
  const at = now.toISOString();
  await trx
    .updateTable('activations')
    .set({ superseded_at: at })
    .where('member_id', '=', member.id)
    .where('used_at', 'is', null)
    .where('superseded_at', 'is', null)
    .execute();
  await trx.updateTable('members').set({ status: 'active', activated_at: at }).where('id', '=', member.id).execute();
  const { country, language } = await trx.selectFrom('members').select(['country', 'language']).where('id', '=', member.id).executeTakeFirstOrThrow();
  await enqueueWebhookEvent(trx, { type: 'member.activated', data: { memberId: member.id, country, language } }, now);
  await spendInvitation(trx, member.registrationCodeId);
  return grantWelcomeVoucher(trx, member.id, member.customization, now);
}

/** The voucher a member was given on activation, as it was issued; null when none (a member of before vouchers, or none yet). */
export async function welcomeVoucherOf(db: Kysely<Database>, memberId: string): Promise<IssuedWelcomeVoucher | null> {
  const row = await db
    .selectFrom('welcome_vouchers')
    .select(['code', 'percent', 'minimum_order_value', 'currency', 'valid_until'])
    .where('member_id', '=', memberId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row) return null;
  return {
    code: row.code,
    percent: row.percent,
    minimumOrderValue: row.minimum_order_value,
    currency: row.currency,
    validUntil: new Date(row.valid_until).toISOString(),
  };
}
