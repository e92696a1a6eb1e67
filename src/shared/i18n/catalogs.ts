import ar from './catalogs/ar.json' with { type: 'json' };
import de from './catalogs/de.json' with { type: 'json' };
import en from './catalogs/en.json' with { type: 'json' };
import es from './catalogs/es.json' with { type: 'json' };
import fr from './catalogs/fr.json' with { type: 'json' };
import ja from './catalogs/ja.json' with { type: 'json' };
import pt from './catalogs/pt.json' with { type: 'json' };
import type { Language } from './languages.ts';
import { type Catalog, Messages } from './messages.ts';

/**
 * Every catalog as written, for the server and the tests (the client loads one, compiled, per
 * language shown: `src/client/i18n/catalog-loaders.ts`).
 */
export const CATALOGS: Record<Language, Catalog> = { en, fr, de, es, pt, ar, ja };

const messages = new Map<Language, Messages>();

/** A language's messages, formatted on the server (the first screens, notifications). */
export function messagesIn(language: Language): Messages {
  let found = messages.get(language);
  if (!found) {
    found = new Messages(language, CATALOGS[language]);
    messages.set(language, found);
  }
  return found;
}
