/**
 * `code rotate --code X` (issue 12 §4, ADR 043): a leaked code is replaced. In one transaction:
 * a new code for the same inviter with the old one's free places (and its customization, slug,
 * expiry and link-only rule), the old code kept for the places its pending registrations hold and
 * quarantined (its later visitors are held, not refused), and the inviter's email with the new
 * code's private link, in their language.
 */
import { randomUUID } from 'node:crypto';
import { normalizeRegistrationCode } from '@velvet/validation/registration-code';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { lockRow } from '../db/lock.ts';
import { emailPrivateLink } from '../domain/code-quarantine.ts';
import { heldPlaces } from '../domain/invitation-places.ts';
import { isUniqueViolation } from '../lib/db-errors.ts';
import { fail, ok } from '../lib/result.ts';
import type { Result } from '../lib/result.ts';
import { generateRegistrationCode } from './create-registration-code.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';

export interface RotatedCode {
  oldCode: string;
  newCode: string;
  /** The new code's balance: the old code's free places. */
  balance: number;
  outboxId: string;
}

const CODE_ATTEMPTS = 5;

/**
 * `within` runs in the rotation's transaction, after it (the console revokes the old code and
 * writes its audit record there, ADR 046): all of it is written, or none.
 */
export async function rotateCode(
  db: Db,
  rawCode: string,
  now: Date = new Date(),
  within?: (trx: Transaction<Database>, rotated: RotatedCode & { oldId: string; newId: string }) => Promise<void>,
): Promise<Result<RotatedCode, string>> {
  const code = normalizeRegistrationCode(rawCode);
  const found = await db.selectFrom('registration_codes').select('id').where('code', '=', code).executeTakeFirst();
  if (!found) return fail(`no registration code ${code}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx): Promise<Result<RotatedCode, string>> => {
        await lockRow(trx, 'registration_codes', found.id);
        const old = await trx.selectFrom('registration_codes').selectAll().where('id', '=', found.id).executeTakeFirstOrThrow();
        const held = Math.min(old.balance, await heldPlaces(trx, old.id, now));
        const newId = randomUUID();
        const newCode = generateRegistrationCode();
        await trx
          .insertInto('registration_codes')
          .values({
            id: newId,
            code: newCode,
            inviter_member_id: old.inviter_member_id,
            balance: old.balance - held,
            expires_at: old.expires_at,
            customization: old.customization,
            landing_slug: old.landing_slug,
            requires_validity_timestamp: old.requires_validity_timestamp,
            disabled: false,
            created_at: now.toISOString(),
          })
          .execute();
        await trx
          .updateTable('registration_codes')
          .set({ balance: held, quarantined_at: old.quarantined_at ?? now.toISOString() })
          .where('id', '=', old.id)
          .execute();
        if (!old.quarantined_at) await enqueueWebhookEvent(trx, { type: 'code.quarantined', data: { code } }, now);
        const outboxId = await emailPrivateLink(trx, old.id, newId, now);
        const rotated = { oldCode: code, newCode, balance: old.balance - held, outboxId };
        await within?.(trx, { ...rotated, oldId: old.id, newId });
        return ok(rotated);
      });
    } catch (error) {
      if (attempt < CODE_ATTEMPTS && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}
