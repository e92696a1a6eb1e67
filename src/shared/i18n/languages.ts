/**
 * The languages the app ships (decision 246): each is one catalog file in `catalogs/`, named by
 * its code. A code here without its file, or a file without its code, fails the catalog test.
 */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'pt', 'ar', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language of the spec's texts, and of the console (decision 246). */
export const SOURCE_LANGUAGE: Language = 'en';

/** Each language by its own name, as the language controls offer it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  pt: 'Português',
  ar: 'العربية',
  ja: '日本語',
};

/** The scripts written right to left. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar']);

export type Direction = 'ltr' | 'rtl';
export const directionOf = (language: string): Direction =>
  RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';

export const isLanguage = (code: unknown): code is Language =>
  typeof code === 'string' && (LANGUAGES as readonly string[]).includes(code);

/**
 * The shipped language a code names: itself, else its base language (`pt-BR` is Portuguese,
 * `fr-CA` French), compared without case; undefined for one the app does not ship.
 */
export function languageOf(code: string | null | undefined): Language | undefined {
  if (!code) return undefined;
  const lower = code.trim().toLowerCase();
  if (isLanguage(lower)) return lower;
  const base = lower.split(/[-_]/, 1)[0];
  return isLanguage(base) ? base : undefined;
}

/**
 * The languages of an `Accept-Language` header, most wanted first (`q=0` ones left out, ties in
 * the order written); at most 20 are read.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',', 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => tag !== '' && tag !== '*' && q > 0 && Number.isFinite(q))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

/**
 * The language a person reads (decision 246): their own choice, else the first of their
 * browser's that the event offers, else the event's default. Every candidate must be enabled.
 */
export function pickLanguage(options: {
  chosen?: string | null | undefined;
  browser?: readonly string[];
  enabled: readonly string[];
  fallback: string;
}): Language {
  const enabled = new Set(options.enabled.map((code) => languageOf(code)).filter(Boolean));
  const offered = (code: string | null | undefined) => {
    const language = languageOf(code);
    return language && enabled.has(language) ? language : undefined;
  };
  return (
    offered(options.chosen) ??
    options.browser?.map(offered).find(Boolean) ??
    languageOf(options.fallback) ??
    SOURCE_LANGUAGE
  );
}

/**
 * Where the person's choice is kept: local storage, mirrored in a cookie of the same name so
 * the server renders the first screens in it (like the colour scheme).
 */
export const LANGUAGE_STORAGE_KEY = 'confab-language';
export const LANGUAGE_COOKIE_MAX_AGE = 31_536_000;

/** A big screen's language, chosen by the organiser in its address (`?lang=fr`). */
export const SCREEN_LANGUAGE_PARAM = 'lang';
