import de from '../catalogs/de.json' with { type: 'json' };
import en from '../catalogs/en.json' with { type: 'json' };
import fr from '../catalogs/fr.json' with { type: 'json' };
import it from '../catalogs/it.json' with { type: 'json' };
import nl from '../catalogs/nl.json' with { type: 'json' };
import pl from '../catalogs/pl.json' with { type: 'json' };
import sv from '../catalogs/sv.json' with { type: 'json' };
import { LOCALES, type Locale } from './locales.ts';

/** The keys of the English catalog, the source of truth every other catalog mirrors. */
export type MessageId = keyof typeof en;

/** A complete catalog: one ICU MessageFormat string per message id. */
export type Messages = Readonly<Record<MessageId, string>>;

/**
 * The raw catalogs, exactly as translated. test/catalogs.test.ts guarantees that every catalog has
 * the same keys (in the same order) and the same ICU arguments as English.
 */
export const catalogs: Record<Locale, Record<string, string>> = { en, de, fr, it, nl, pl, sv };

// English underneath every language, so a key that reaches production untranslated still renders
// text instead of its id. The catalog test keeps this from ever being needed.
const complete = Object.fromEntries(
  LOCALES.map((locale) => [locale, Object.freeze({ ...en, ...catalogs[locale] })]),
) as Record<Locale, Messages>;

export function messagesFor(locale: Locale): Messages {
  return complete[locale];
}
