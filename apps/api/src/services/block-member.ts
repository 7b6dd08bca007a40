/**
 * Blocks a member (customer service: abuse, a leaked code) or lifts the block. A blocked
 * inviter's codes answer INVITER_INVALID; a blocked registration cannot be activated.
 * Lifting the block restores what the member was: active once activated, else pending.
 */
import type { Db } from '../db/connect.ts';
import type { MemberStatus } from '../db/schema.ts';
import { fail, ok, type Result } from '../lib/result.ts';

export async function setMemberBlocked(db: Db, email: string, blocked: boolean): Promise<Result<{ email: string; status: MemberStatus }, string>> {
  const address = email.trim().toLowerCase();
  const member = await db.selectFrom('members').select(['id', 'status', 'activated_at']).where('email', '=', address).executeTakeFirst();
  if (!member) return fail(`no member with the address ${address}`);
  const status: MemberStatus = blocked ? 'blocked' : member.activated_at ? 'active' : 'pending';
  if (!blocked && member.status !== 'blocked') return fail(`${address} is not blocked`);
  await db.updateTable('members').set({ status }).where('id', '=', member.id).execute();
  return ok({ email: address, status });
}
