/**
 * The places of an invitation (ADR 029). A code's `balance` counts the invitations left;
 * activating a member spends one. Of those, a pending registration holds one place while
 * it can still be activated: unless its current activation link (the newest, neither used
 * nor superseded) has expired. An expired link gives the place back at once — nothing is
 * written, the rule is read at every check, under the code's row lock when a place is
 * taken — so throw-away registrations never block a code for ever. A pending member
 * without any current link (imported or demo rows) keeps holding their place.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The pending member `m` still holds their place at `now`: their current link has not expired,
 * or they have none. `place_held_until` is that link's expiry, written with the link
 * (`issueActivation`, `domain/activation-links.ts`), so the rule reads one column of the
 * member — an index range per code — instead of the member's links (ADR 036).
 */
function holdingPlace(eb: ExpressionBuilder<Database & { m: Database['members'] }, 'm'>, now: string) {
  return eb.and([eb('m.status', '=', 'pending'), eb.or([eb('m.place_held_until', 'is', null), eb('m.place_held_until', '>', now)])]);
}

/** The places pending registrations hold on the code `registrationCodeId` at `now`. */
export async function heldPlaces(db: Kysely<Database>, registrationCodeId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('members as m')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('m.registration_code_id', '=', registrationCodeId)
    .where((eb) => holdingPlace(eb, now.toISOString()))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Whether every place of the code is held at `now` (a code without any place is, uncounted).
 * Each pending member holds at most one place, so a code with fewer pending members
 * (`pending_members`, kept by triggers, ADR 036) than places has a free one without counting;
 * only a code that may be full is counted.
 */
export async function placesFull(db: Kysely<Database>, code: { id: string; balance: number; pending_members: number }, now: Date): Promise<boolean> {
  if (code.balance <= 0) return true;
  if (code.pending_members < code.balance) return false;
  return (await heldPlaces(db, code.id, now)) >= code.balance;
}

/** Whether the pending member `memberId` still holds their place at `now`. */
export async function holdsPlace(db: Kysely<Database>, memberId: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('members as m')
    .select('m.id')
    .where('m.id', '=', memberId)
    .where((eb) => holdingPlace(eb, now.toISOString()))
    .executeTakeFirst();
  return row !== undefined;
}
