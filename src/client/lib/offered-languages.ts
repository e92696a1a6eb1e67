import type { Language } from '../../shared/i18n/languages.ts';

/** What the organiser offers: the languages attendees may choose, and the event's default. */
export interface LanguageOffer {
  languages: readonly Language[];
  defaultLanguage: Language;
}

const listeners = new Set<(offer: LanguageOffer) => void>();

/** Tells `listener` the offer whenever the settings arrive (the language shown follows it). */
export function onLanguageOffer(listener: (offer: LanguageOffer) => void): void {
  listeners.add(listener);
}

/** The settings arrived, by event or by a read: whoever follows the offer hears it. */
export function takeLanguageOffer(offer: LanguageOffer): void {
  for (const listener of listeners) listener(offer);
}
