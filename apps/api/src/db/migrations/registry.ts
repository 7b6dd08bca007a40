import type { Migration } from 'kysely/migration';
import { initialMigration } from './0001-initial.ts';
import { registrationMigration } from './0002-registration.ts';
import { waitlistInterestSocialMigration } from './0003-waitlist-interest-social.ts';
import { consentAndFunnelMigration } from './0004-consent-and-funnel.ts';
import { featureOverridesMigration } from './0005-feature-overrides.ts';
import { abuseDefenceMigration } from './0006-abuse-defence.ts';
import { heldPlacesAndLegalRevisionMigration } from './0007-held-places-and-legal-revision.ts';
import { adminConsoleMigration } from './0008-admin-console.ts';
import { codeConsoleMigration } from './0009-code-console.ts';
import { waitlistAdmissionMigration } from './0010-waitlist-admission.ts';
import { memberLookupAndErasureMigration } from './0011-member-lookup-and-erasure.ts';
import { adminListsMigration } from './0012-admin-lists.ts';
import { codeSignalCountsMigration } from './0013-code-signal-counts.ts';
import { secondFactorAttemptsMigration } from './0014-second-factor-attempts.ts';
import { auditLogPseudonymsMigration } from './0015-audit-log-pseudonyms.ts';
import { outboxInviterNameMigration } from './0016-outbox-inviter-name.ts';
import { codeSignalNetworksMigration } from './0017-code-signal-networks.ts';
import { waitlistLeaveReferenceMigration } from './0018-waitlist-leave-reference.ts';
import { lobbyLinkReferenceMigration } from './0019-lobby-link-reference.ts';
import { applicationDecisionsMigration } from './0020-application-decisions.ts';
import { webhooksMigration } from './0021-webhooks.ts';
import { dataLinksAndPrivacyRequestsMigration } from './0022-data-links-and-privacy-requests.ts';
import { adminLanguageMigration } from './0023-admin-language.ts';

/**
 * Every migration, by name, in order. A static object rather than a folder scan:
 * works the same under tsx, in tests and in a bundle. Names never change once released.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initialMigration,
  '0002-registration': registrationMigration,
  '0003-waitlist-interest-social': waitlistInterestSocialMigration,
  '0004-consent-and-funnel': consentAndFunnelMigration,
  '0005-feature-overrides': featureOverridesMigration,
  '0006-abuse-defence': abuseDefenceMigration,
  '0007-held-places-and-legal-revision': heldPlacesAndLegalRevisionMigration,
  '0008-admin-console': adminConsoleMigration,
  '0009-code-console': codeConsoleMigration,
  '0010-waitlist-admission': waitlistAdmissionMigration,
  '0011-member-lookup-and-erasure': memberLookupAndErasureMigration,
  '0012-admin-lists': adminListsMigration,
  '0013-code-signal-counts': codeSignalCountsMigration,
  '0014-second-factor-attempts': secondFactorAttemptsMigration,
  // Without the secret here: a database with addresses in its audit log is refused (migrationsFor).
  '0015-audit-log-pseudonyms': auditLogPseudonymsMigration({}),
  '0016-outbox-inviter-name': outboxInviterNameMigration,
  '0017-code-signal-networks': codeSignalNetworksMigration,
  '0018-waitlist-leave-reference': waitlistLeaveReferenceMigration,
  '0019-lobby-link-reference': lobbyLinkReferenceMigration,
  '0020-application-decisions': applicationDecisionsMigration,
  '0021-webhooks': webhooksMigration,
  '0022-data-links-and-privacy-requests': dataLinksAndPrivacyRequestsMigration,
  '0023-admin-language': adminLanguageMigration,
};

/** What a migration may need besides the database (migrate.ts hands it over). */
export interface MigrationContext {
  /** APP_SECRET: 0015 rewrites addresses in the audit log to their pseudonyms (ADR 048). */
  secret?: string;
}

/** The migrations, those that need it given the context (same names, same order). */
export function migrationsFor(context: MigrationContext): Record<string, Migration> {
  return { ...migrations, '0015-audit-log-pseudonyms': auditLogPseudonymsMigration(context) };
}
