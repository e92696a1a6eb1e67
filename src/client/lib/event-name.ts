import { EVENT_NAME_SLOT } from '../../shared/constants.ts';

/** What the texts call the event ({product}) when the page does not say (the dev server). */
const DEFAULT_EVENT_NAME = 'Confab';

/**
 * The event's name, from the page itself: the server writes `EVENT_NAME` into the HTML as
 * `<meta name="application-name">`, so every screen names the event at its first render,
 * without waiting for a call (docs/decisions/070).
 */
const eventName =
  typeof document === 'undefined'
    ? // Prerendered at build time: the server puts the name in force where this stands.
      EVENT_NAME_SLOT
    : document.querySelector<HTMLMetaElement>('meta[name="application-name"]')?.content.trim() ||
      DEFAULT_EVENT_NAME;

/** The event's name as the texts say it ({product}). */
export function useEventName(): string {
  return eventName;
}
