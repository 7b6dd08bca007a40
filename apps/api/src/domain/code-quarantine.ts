/**
 * Leaked codes caught (issue 12 §4, ADR 043, ADR 054). Each request watches the codes it touches
 * (`CodeWatch`): a registration, a visit from a blocked referrer, a near-miss typed code is
 * recorded against the client's network (code-signals.ts), and a code whose leak score — many
 * networks, never one network's repeats — reaches CODE_QUARANTINE_SCORE is
 * quarantined: new registrations on it are held for review (nobody is refused, nobody gets an
 * account yet), and its inviter gets an email in their language with a fresh private link — a
 * signed link made after the quarantine, which registers as before. Operators see and decide
 * with `code flagged`, `code release`, `code rotate`.
 */
import type { Kysely } from 'kysely';
import { isLocale } from '@velvet/i18n/locales';
import type { Db } from '../db/connect.ts';
import { lockRow } from '../db/lock.ts';
import type { Database, NetworkSignalKind } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { OutboxSignal } from '../mail/outbox-signal.ts';
import { enqueueEmail } from '../mail/outbox.ts';
import { nearMissOf, readLeakEvidence, recordCodeSignal } from './code-signals.ts';
import type { SignalSource } from './code-signals.ts';
import { REGISTRATION_LINK_VALIDITY_DAYS } from './registration-link.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';

const DAY_MS = 86_400_000;

/**
 * Inside a transaction holding the code's row lock: sends the code's inviter a fresh private
 * link to `linkCodeId` (the code itself, or its successor after `code rotate`), in the inviter's
 * language. Returns the outbox row id.
 */
export async function emailPrivateLink(trx: Kysely<Database>, pausedCodeId: string, linkCodeId: string, now: Date): Promise<string> {
  const paused = await trx
    .selectFrom('registration_codes as rc')
    .innerJoin('members as inviter', 'inviter.id', 'rc.inviter_member_id')
    .select(['rc.code', 'inviter.email', 'inviter.first_name', 'inviter.language'])
    .where('rc.id', '=', pausedCodeId)
    .executeTakeFirstOrThrow();
  const link = await trx.selectFrom('registration_codes').select('code').where('id', '=', linkCodeId).executeTakeFirstOrThrow();
  return enqueueEmail(
    trx,
    {
      template: 'private-link',
      recipient: paused.email,
      locale: paused.language && isLocale(paused.language) ? paused.language : 'en',
      payload: {
        pausedCode: paused.code,
        linkCode: link.code,
        firstName: paused.first_name || null,
        // A generator link's life: its expiry dates it as made now (registration-link.ts).
        expiresAt: new Date(Math.floor((now.getTime() + REGISTRATION_LINK_VALIDITY_DAYS * DAY_MS) / 1000) * 1000).toISOString(),
      },
    },
    now,
  );
}

/** Quarantines the code (once) and emails its inviter the fresh private link; false when it already was. */
async function quarantineCode(db: Db, codeId: string, now: Date): Promise<{ quarantined: boolean; outboxId: string | null }> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockRow(trx, 'registration_codes', codeId))) return { quarantined: false, outboxId: null };
    const row = await trx.selectFrom('registration_codes').select(['code', 'quarantined_at']).where('id', '=', codeId).executeTakeFirstOrThrow();
    if (row.quarantined_at) return { quarantined: false, outboxId: null };
    await trx.updateTable('registration_codes').set({ quarantined_at: now.toISOString() }).where('id', '=', codeId).execute();
    await enqueueWebhookEvent(trx, { type: 'code.quarantined', data: { code: row.code } }, now);
    return { quarantined: true, outboxId: await emailPrivateLink(trx, codeId, codeId, now) };
  });
}

/** What a request observes about the codes it touches. */
export interface CodeWatch {
  /**
   * Records the observation; true when the code is quarantined now (before, or by this one).
   * `registration_beyond_places`: a registration the code's check found without a free place.
   */
  observe(codeId: string, kind: Exclude<NetworkSignalKind, 'near_miss'>): Promise<boolean>;
  /** An unknown code was typed: counted against an issued code one character away, if any. */
  observeUnknown(code: string): Promise<void>;
}

export function createCodeWatch(deps: {
  db: Db;
  /** CODE_QUARANTINE_SCORE. */
  threshold: number;
  source: SignalSource;
  now: Date;
  outboxSignal?: OutboxSignal;
  logger?: Logger;
}): CodeWatch {
  /** Whether the code is quarantined after this observation. */
  const weigh = async (codeId: string): Promise<boolean> => {
    const code = await deps.db
      .selectFrom('registration_codes')
      .select(['id', 'signals_since', 'quarantined_at'])
      .where('id', '=', codeId)
      .executeTakeFirst();
    if (!code) return false;
    if (code.quarantined_at) return true;
    const evidence = await readLeakEvidence(deps.db, { id: code.id, signalsSince: code.signals_since }, deps.now, deps.threshold);
    if (evidence.score < deps.threshold) return false;
    const { quarantined, outboxId } = await quarantineCode(deps.db, code.id, deps.now);
    if (quarantined) {
      deps.outboxSignal?.notify();
      deps.logger?.warn({ registrationCodeId: code.id, outboxId, ...evidence }, 'code quarantined: leak signals past the threshold');
    }
    return true;
  };
  return {
    async observe(codeId, kind) {
      await recordCodeSignal(deps.db, codeId, kind, deps.source, deps.now);
      return weigh(codeId);
    },
    async observeUnknown(code) {
      const codeId = await nearMissOf(deps.db, code);
      if (!codeId) return;
      await recordCodeSignal(deps.db, codeId, 'near_miss', deps.source, deps.now);
      await weigh(codeId);
    },
  };
}
