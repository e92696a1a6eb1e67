import type { Catalog } from '../../shared/i18n/messages.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import type { CatalogLoader } from './language.ts';

/**
 * Each language's catalog as a chunk of its own, compiled to the parser's tree at build time
 * (`vite.config.ts`, decision 246): only the language shown is loaded.
 */
const catalogs = import.meta.glob<Catalog>('../../shared/i18n/catalogs/*.json', {
  query: '?catalog',
  import: 'default',
});

export const loadCatalog: CatalogLoader = async (language: Language) => {
  const load = catalogs[`../../shared/i18n/catalogs/${language}.json`];
  if (!load) throw new Error(`No catalog for ${language}`);
  return load();
};
