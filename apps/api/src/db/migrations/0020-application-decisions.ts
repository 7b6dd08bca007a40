/**
 * Issue 24 §1 (ADR 063): applicants hear back.
 * - decline_reasons: the reasons an operator chooses from when declining, one text per language
 *   (JSON), written by the owner in the console; three defaults seeded here.
 * - application_settings: one row, the cool-down in days before a declined address may apply again.
 * - application_declines: a declined application, kept without its address — the address's
 *   pseudonym (the keyed hash of ADR 048) matches a later application during the cool-down —
 *   with the reason, who decided, and when the address may apply again.
 * - status_references: the SHA-256 of the short random reference each status link carries (an
 *   application, a waiting-list entry or a decline), as the leave link's (0018).
 * Expand only: new tables, nothing the running version reads changes. Frozen once released.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { engineOf } from '../engine.ts';

/** The three reasons a new club starts with, in the seven languages (the owner rewrites them in the console). */
const DEFAULT_REASONS: { id: string; texts: Record<string, string> }[] = [
  {
    id: 'reason-country',
    texts: {
      en: 'We are not yet admitting new members in your country.',
      de: 'In Ihrem Land nehmen wir derzeit noch keine neuen Mitglieder auf.',
      fr: 'Nous n’accueillons pas encore de nouveaux membres dans votre pays.',
      it: 'Nel tuo paese non accogliamo ancora nuovi membri.',
      nl: 'In jouw land nemen we nog geen nieuwe leden aan.',
      pl: 'W Twoim kraju nie przyjmujemy jeszcze nowych członków.',
      sv: 'Vi tar ännu inte emot nya medlemmar i ditt land.',
    },
  },
  {
    id: 'reason-incomplete',
    texts: {
      en: 'Your application was incomplete, so we could not consider it in full.',
      de: 'Ihre Anfrage war leider unvollständig, sodass wir sie nicht abschließend prüfen konnten.',
      fr: 'Votre demande était incomplète, nous n’avons donc pas pu l’examiner dans son ensemble.',
      it: 'La tua richiesta era incompleta, quindi non abbiamo potuto valutarla fino in fondo.',
      nl: 'Je aanvraag was niet volledig, daardoor konden we die niet helemaal beoordelen.',
      pl: 'Twoje zgłoszenie było niekompletne, dlatego nie mogliśmy go w pełni rozpatrzyć.',
      sv: 'Din ansökan var inte komplett, så vi kunde inte bedöma den fullt ut.',
    },
  },
  {
    id: 'reason-capacity',
    texts: {
      en: 'All places are taken for now, so we cannot admit new members at the moment.',
      de: 'Derzeit sind alle Plätze vergeben, daher können wir vorerst keine neuen Mitglieder aufnehmen.',
      fr: 'Toutes nos places sont actuellement occupées, nous ne pouvons donc pas accueillir de nouveaux membres pour le moment.',
      it: 'Al momento tutti i posti sono occupati, quindi per ora non possiamo accogliere nuovi membri.',
      nl: 'Op dit moment zijn alle plekken bezet, daarom kunnen we voorlopig geen nieuwe leden toelaten.',
      pl: 'Obecnie wszystkie miejsca są zajęte, dlatego na razie nie przyjmujemy nowych członków.',
      sv: 'Just nu är alla platser tagna, så vi kan inte ta emot nya medlemmar för tillfället.',
    },
  },
];

/** Days a declined address waits before it may apply again, until the owner sets another. */
const DEFAULT_COOLDOWN_DAYS = 90;

export const applicationDecisionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = engineOf(db) === 'postgres' ? 'timestamptz' : 'text';
    const epoch = new Date(0).toISOString();

    await db.schema
      .createTable('decline_reasons')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('position', 'integer', (c) => c.notNull())
      // {"en": "…", "de": "…", …}: every one of the seven languages.
      .addColumn('texts', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .execute();
    for (const [position, reason] of DEFAULT_REASONS.entries()) {
      await sql`insert into decline_reasons (id, position, texts, created_at, updated_at)
        values (${reason.id}, ${position + 1}, ${JSON.stringify(reason.texts)}, ${epoch}, ${epoch})`.execute(db);
    }

    await db.schema
      .createTable('application_settings')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('cooldown_days', 'integer', (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('application_settings_single_row_check', sql`id = 1`)
      .addCheckConstraint('application_settings_cooldown_check', sql`cooldown_days >= 1 and cooldown_days <= 730`)
      .execute();
    await sql`insert into application_settings (id, cooldown_days, updated_at) values (1, ${DEFAULT_COOLDOWN_DAYS}, ${epoch})`.execute(db);

    await db.schema
      .createTable('application_declines')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // The address's pseudonym (domain/privacy-subject.ts), never the address.
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('country', 'text')
      .addColumn('applied_at', timestamp, (c) => c.notNull())
      .addColumn('declined_at', timestamp, (c) => c.notNull())
      .addColumn('reason_id', 'text', (c) => c.notNull().references('decline_reasons.id'))
      .addColumn('decided_by_admin_id', 'text')
      .addColumn('decided_by_email', 'text')
      .addColumn('reapply_after', timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('application_declines_subject_idx').on('application_declines').columns(['subject', 'reapply_after']).execute();
    await db.schema.createIndex('application_declines_declined_idx').on('application_declines').column('declined_at').execute();

    await db.schema
      .createTable('status_references')
      // base64url SHA-256 of the link's 22-character reference.
      .addColumn('hash', 'text', (c) => c.primaryKey())
      // 'application' | 'waitlist' | 'decline': the table `target_id` is a row of.
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('status_references_target_idx').on('status_references').columns(['kind', 'target_id']).execute();
    // The expected wait counts the last 30 days' selections and waiting-list invitations.
    await sql`create index membership_applications_selected_at_idx on membership_applications (selected_at) where selected_at is not null`.execute(db);
    await sql`create index waitlist_entries_invited_at_idx on waitlist_entries (invited_at) where invited_at is not null`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('waitlist_entries_invited_at_idx').execute();
    await db.schema.dropIndex('membership_applications_selected_at_idx').execute();
    await db.schema.dropTable('status_references').execute();
    await db.schema.dropTable('application_declines').execute();
    await db.schema.dropTable('application_settings').execute();
    await db.schema.dropTable('decline_reasons').execute();
  },
};
