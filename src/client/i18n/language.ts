import { Fragment, type ReactNode, createElement, useSyncExternalStore } from 'react';
import {
  type Catalog,
  type MessageId,
  type MessageValues,
  Messages,
} from '../../shared/i18n/messages.ts';
import {
  LANGUAGE_COOKIE_MAX_AGE,
  LANGUAGE_STORAGE_KEY,
  type Language,
  SCREEN_LANGUAGE_PARAM,
  SOURCE_LANGUAGE,
  directionOf,
  languageOf,
  pickLanguage,
} from '../../shared/i18n/languages.ts';
import { screenLanguage } from '../../shared/routes.ts';
import { type LanguageOffer, onLanguageOffer } from '../lib/offered-languages.ts';

/** Formats one message of the language shown: `t('qa.askButton')`, `t('x', { count })`. */
export type Translate = (id: MessageId, values?: MessageValues) => string;

/**
 * Formats a message with parts that are not text: people's own text isolated in its direction
 * (`rich('qa.dashboardTitle', { name: <bdi>{name}</bdi> })`), links and emphasis as tags
 * (`<link>…</link>` with `link: (chunks) => <a …>{chunks}</a>`).
 */
export type TranslateRich = (
  id: MessageId,
  values: Record<string, string | number | Date | ReactNode | ((chunks: ReactNode[]) => ReactNode)>,
) => ReactNode;

/** Reads a language's catalog: its own chunk in the client, loaded only when it is shown. */
export type CatalogLoader = (language: Language) => Promise<Catalog>;

interface Shown {
  messages: Messages;
  t: Translate;
  rich: TranslateRich;
}

const shownOf = (messages: Messages): Shown => ({
  messages,
  t: (id, values) => messages.format(id, values),
  rich: (id, values) =>
    createElement(Fragment, null, ...messages.formatParts<ReactNode>(id, values as never)),
});

let loadCatalog: CatalogLoader | undefined;
let shown: Shown = shownOf(new Messages(SOURCE_LANGUAGE, {}));
const listeners = new Set<() => void>();

function show(messages: Messages): void {
  shown = shownOf(messages);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = messages.language;
    document.documentElement.dir = directionOf(messages.language);
  }
  for (const listener of listeners) listener();
}

/** How catalogs are read (the entry's loaders, or the prerender's catalogs already read). */
export function setCatalogLoader(loader: CatalogLoader): void {
  loadCatalog = loader;
}

/** Shows `language` once its catalog is read (the first render waits for it). */
export async function showLanguage(language: Language): Promise<void> {
  if (shown.messages.language === language && Object.keys(shown.messages.catalog).length > 0) {
    return;
  }
  if (!loadCatalog) throw new Error('No catalog loader: call setCatalogLoader first');
  const messages = new Messages(language, await loadCatalog(language));
  // Its number format and plural rules are made in a task of their own, before a render in it
  // needs them (decision 254).
  await new Promise((resolve) => setTimeout(resolve, 0));
  messages.warm();
  show(messages);
}

/** Renders in `language` from now on, synchronously (the server's render of a screen). */
export function showCatalog(language: Language, catalog: Catalog): void {
  show(new Messages(language, catalog));
}

/** The language shown now. */
export const shownLanguage = (): Language => shown.messages.language;

/** Formats a message in the language shown, outside React (toasts, titles, notifications). */
export const translate: Translate = (id, values) => shown.t(id, values);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const snapshot = () => shown;

/** The language shown and its formatter; a change of language renders again. */
export function useMessages(): { language: Language; t: Translate; rich: TranslateRich } {
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  return { language: current.messages.language, t: current.t, rich: current.rich };
}

/** The formatter of the language shown: `const t = useT(); t('qa.askButton')`. */
export const useT = (): Translate => useSyncExternalStore(subscribe, snapshot, snapshot).t;

/** The person's own choice on this device, if any. */
export function savedLanguage(): Language | undefined {
  try {
    return languageOf(window.localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return undefined;
  }
}

/**
 * The person chose `language` (the join page's or the header's control): kept on the device,
 * mirrored in a cookie so the server renders the first screens in it, and shown.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the cookie still carries the choice.
  }
  document.cookie = `${LANGUAGE_STORAGE_KEY}=${language}; max-age=${LANGUAGE_COOKIE_MAX_AGE}; path=/; samesite=lax`;
  await showLanguage(language);
}

/** A language picked in the page's own control before its code took the page over. */
let pickedEarly: Language | undefined;

/**
 * Reads, just before React takes a server-rendered page over, the language picked in the page's
 * control meanwhile: the browser changed the control, but nothing ran. Taking the page over sets
 * the control back to the language shown, so the pick is kept here (decision 252).
 */
export function notePickedEarly(root: ParentNode): void {
  const control = root.querySelector<HTMLSelectElement>('select[data-language-control]');
  const picked = languageOf(control?.value);
  pickedEarly = picked !== undefined && picked !== shownLanguage() ? picked : undefined;
}

/** Chooses the language picked early, once the control is React's (it calls this as it mounts). */
export function choosePickedEarly(): void {
  const picked = pickedEarly;
  pickedEarly = undefined;
  if (picked) void chooseLanguage(picked).catch(() => undefined);
}

/**
 * The language of the page's first render (decision 246): a big screen's is the one its address
 * names, else the one the server chose for the page (the event's default); the console is in
 * English; a person's screen is in their saved choice, else the server's pick from their
 * browser's languages (`<html lang>`).
 */
export function firstLanguage(pathname: string): Language {
  const page = languageOf(document.documentElement.lang) ?? SOURCE_LANGUAGE;
  switch (screenLanguage(pathname)) {
    case 'console':
      return SOURCE_LANGUAGE;
    case 'big-screen':
      return (
        languageOf(new URLSearchParams(window.location.search).get(SCREEN_LANGUAGE_PARAM)) ?? page
      );
    default:
      return savedLanguage() ?? page;
  }
}

/**
 * The organiser changed the languages (`settingsUpdated`, or a read of the config): a person
 * whose language is no longer offered moves to the one they would get now; a big screen that
 * its address does not tie to a language follows the event's default.
 */
function followOfferedLanguages(offer: LanguageOffer): void {
  if (typeof window === 'undefined') return;
  const { pathname, search } = window.location;
  const language = shownLanguage();
  let wanted: Language = language;
  switch (screenLanguage(pathname)) {
    case 'console':
      return;
    case 'big-screen':
      if (!languageOf(new URLSearchParams(search).get(SCREEN_LANGUAGE_PARAM))) {
        wanted = offer.defaultLanguage;
      }
      break;
    default:
      if (!offer.languages.includes(language)) {
        wanted = pickLanguage({
          chosen: savedLanguage(),
          browser: navigator.languages,
          enabled: offer.languages,
          fallback: offer.defaultLanguage,
        });
      }
  }
  if (wanted !== language) void showLanguage(wanted).catch(() => undefined);
}

onLanguageOffer(followOfferedLanguages);
