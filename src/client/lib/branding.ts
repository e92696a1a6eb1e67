import { useSyncExternalStore } from 'react';
import { BRAND_STYLE_ID, DEFAULT_PRIMARY_COLOR, brandCss } from '../../shared/brand-palette.ts';
import {
  DATA_KEPT_META,
  DATA_KEPT_SLOT,
  EVENT_NAME_SLOT,
  LOGO_META,
  LOGO_URL_SLOT,
} from '../../shared/constants.ts';
import { formatKeptDay } from '../../shared/retention.ts';
import { useMessages } from '../i18n/language.ts';
import { defaultLogoUrl } from '../../shared/logo.ts';

/** What every screen shows of the event: the admin's settings, live (decision 162). */
export interface Branding {
  eventName: string;
  primaryColor: string;
  /** The event's logo; null: the app's own. */
  logoUrl: string | null;
  /** The last day attendees' data is kept (`YYYY-MM-DD`); null: until the organiser deletes it. */
  dataKeptUntil: string | null;
}

/** What the texts call the event ({product}) when the page does not say (the dev server). */
const DEFAULT_EVENT_NAME = 'Confab';

const metaOf = (name: string) =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`) ?? undefined;

/** The page's `<style>` with the colour's shades, made when the page has none (the dev server). */
function applyColor(color: string): void {
  let style = document.getElementById(BRAND_STYLE_ID);
  if (!style) {
    style = document.createElement('style');
    style.id = BRAND_STYLE_ID;
    document.head.append(style);
  }
  const css = brandCss(color);
  if (style.textContent !== css) style.textContent = css;
}

/**
 * The branding the page was served with: the server writes it into the page's head (decision
 * 162), so every screen shows it at its first render without a call. Rendered at build time,
 * the name and logo are slots the server fills in.
 */
function fromPage(): Branding {
  if (typeof document === 'undefined') {
    return {
      eventName: EVENT_NAME_SLOT,
      primaryColor: DEFAULT_PRIMARY_COLOR,
      logoUrl: LOGO_URL_SLOT,
      dataKeptUntil: null,
    };
  }
  const color = metaOf('theme-color')?.content.trim() ?? '';
  const branding = {
    eventName: metaOf('application-name')?.content.trim() || DEFAULT_EVENT_NAME,
    primaryColor: /^#[0-9a-f]{6}$/i.test(color) ? color : DEFAULT_PRIMARY_COLOR,
    logoUrl: metaOf(LOGO_META)?.content.trim() || null,
    dataKeptUntil: metaOf(DATA_KEPT_META)?.content.trim() || null,
  };
  if (!document.getElementById(BRAND_STYLE_ID)) applyColor(branding.primaryColor);
  return branding;
}

let current = fromPage();
const listeners = new Set<() => void>();

/** Sets (or adds) `<meta name>` in the page's head. */
function setMeta(name: string, content: string): void {
  let meta = metaOf(name);
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.append(meta);
  }
  meta.content = content;
}

/**
 * Takes new branding (the settings changed, or were read again): the screens render it, and the
 * page's colour, title, `theme-color` and icon follow at once.
 */
export function setBranding(next: Branding): void {
  const previous = current;
  if (
    next.eventName === previous.eventName &&
    next.primaryColor === previous.primaryColor &&
    next.logoUrl === previous.logoUrl &&
    next.dataKeptUntil === previous.dataKeptUntil
  ) {
    return;
  }
  current = {
    eventName: next.eventName,
    primaryColor: next.primaryColor,
    logoUrl: next.logoUrl,
    dataKeptUntil: next.dataKeptUntil,
  };
  applyColor(current.primaryColor);
  setMeta('application-name', current.eventName);
  setMeta('theme-color', current.primaryColor);
  setMeta(LOGO_META, current.logoUrl ?? '');
  setMeta(DATA_KEPT_META, current.dataKeptUntil ?? '');
  const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (icon) {
    icon.href = current.logoUrl ?? defaultLogoUrl(current.primaryColor);
    if (current.logoUrl) icon.removeAttribute('type');
    else icon.type = 'image/svg+xml';
  }
  if (previous.eventName && document.title.includes(previous.eventName)) {
    document.title = document.title.replaceAll(previous.eventName, current.eventName);
  }
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const snapshot = () => current;

/** The event's branding as it is now, re-rendering when it changes. */
export const useBranding = (): Branding => useSyncExternalStore(subscribe, snapshot, snapshot);

/** The event's logo to show: the organiser's, else the app's own in the event's colour. */
export const useLogoUrl = (): string => {
  const { logoUrl, primaryColor } = useBranding();
  return logoUrl ?? defaultLogoUrl(primaryColor);
};

/**
 * The join page's line on what is kept and until when, in the language shown, from the page at
 * its first render; in the page rendered at build time, the slot the server fills in with the
 * same message in the page's language (decision 217).
 */
export const useDataKeptLine = (): string => {
  const { dataKeptUntil } = useBranding();
  const { t, language } = useMessages();
  if (typeof document === 'undefined') return DATA_KEPT_SLOT;
  return dataKeptUntil
    ? t('join.dataKept', { day: formatKeptDay(dataKeptUntil, language) })
    : t('join.dataKeptNoEnd');
};
