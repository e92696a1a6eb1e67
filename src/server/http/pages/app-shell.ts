import {
  DATA_KEPT_SLOT,
  DEFAULT_LOGO_URL,
  EVENT_NAME_SLOT,
  LOGO_URL_SLOT,
} from '../../../shared/constants.ts';
import { messagesIn } from '../../../shared/i18n/catalogs.ts';
import { type Language, SOURCE_LANGUAGE } from '../../../shared/i18n/languages.ts';
import { formatKeptDay } from '../../../shared/retention.ts';
import { defaultLogoUrl } from '../../../shared/logo.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { escapeHtml } from './html.ts';

// Tabler's arrow-left, as the React header draws it.
const ARROW_LEFT =
  '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" class="confab-flip-rtl"><path d="M5 12l14 0"/><path d="M5 12l6 6"/><path d="M5 12l6 -6"/></svg>';

/**
 * The page shell (decision 093): the header's frame, back arrow, logo and event name, as the
 * React header (src/client/app/layout/app-header.tsx) draws them: the same elements with the
 * app's own classes (app-header.css), none of the UI kit's. The browser paints it as soon as
 * the page's stylesheet is in, before any script; React's first render replaces it. Its links
 * work without the code. Its labels are in the page's language, its arrow points its way.
 */
export function appShell(
  eventName: string,
  logoUrl: string | null = null,
  language: Language = SOURCE_LANGUAGE,
): string {
  const messages = messagesIn(language);
  const name = escapeHtml(eventName);
  const logo = escapeHtml(logoUrl ?? DEFAULT_LOGO_URL);
  const back = escapeHtml(messages.format('app.back'));
  const home = escapeHtml(messages.format('app.homeLink', { name: eventName }));
  return [
    '<header class="app-header">',
    '<div class="app-header-bar"><div class="app-header-start">',
    `<a class="app-header-back" aria-label="${back}" href="${CLIENT_PATHS.home}">${ARROW_LEFT}</a>`,
    `<a class="app-header-logo" aria-label="${home}" href="${CLIENT_PATHS.home}">`,
    `<img class="app-header-logo-image" alt="" src="${logo}" width="32" height="32" />`,
    `<p class="app-header-name" dir="auto">${name}</p>`,
    '</a></div></div></header>',
  ].join('');
}

/** The page with the shell put into its root element (left as it is without one). */
export const withAppShell = (html: string, shell: string) =>
  html.replace(/<div id="root"><\/div>/, () => `<div id="root">${shell}</div>`);

/**
 * The join page's line on what is kept and until when, in `language`: the client's message, with
 * the day written as the client writes it, so the page it hydrates reads the same.
 */
export function dataKeptLine(lastDay: string | null, language: Language): string {
  const messages = messagesIn(language);
  return lastDay
    ? messages.format('join.dataKept', { day: formatKeptDay(lastDay, language) })
    : messages.format('join.dataKeptNoEnd');
}

/**
 * The page with a screen React rendered in its root element, the event's name and logo written
 * where the markup holds their slots. `hydrate` (the join page, decision 106): `data-prerendered`
 * tells the client to hydrate the markup rather than draw the screen again. Without it (the
 * shells of decision 173, the screens rendered with their data of decision 185), React's first
 * render replaces the markup. `codeAfterPaint` (the join page and the screens with their data,
 * which paint whole without it): the code loads after the first paint (decision 174).
 * `language`: the one the markup was rendered in, which the join page's line is written in.
 */
export function withPrerendered(
  html: string,
  markup: string,
  branding: {
    eventName: string;
    logoUrl: string | null;
    primaryColor: string;
    dataKeptUntil?: string | null;
  },
  {
    hydrate,
    codeAfterPaint = hydrate,
    language = SOURCE_LANGUAGE,
  }: { hydrate: boolean; codeAfterPaint?: boolean; language?: Language },
): string {
  const filled = markup
    .replaceAll(EVENT_NAME_SLOT, escapeHtml(branding.eventName))
    .replaceAll(
      LOGO_URL_SLOT,
      escapeHtml(branding.logoUrl ?? defaultLogoUrl(branding.primaryColor)),
    )
    .replaceAll(DATA_KEPT_SLOT, escapeHtml(dataKeptLine(branding.dataKeptUntil ?? null, language)));
  const page = html.replace(
    /<div id="root"><\/div>/,
    () => `<div id="root" ${hydrate ? 'data-prerendered' : 'data-shell'}="">${filled}</div>`,
  );
  return codeAfterPaint ? afterPaint(page) : page;
}

/**
 * The page with its code loaded after its first paint (decision 174): the entry's module script
 * and its module preloads become one classic script, `after-paint.js`, that names them and loads
 * them one frame after the page has painted.
 */
function afterPaint(html: string): string {
  const preloads: string[] = [];
  const page = html.replace(
    /\s*<link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>/g,
    (_tag, href: string) => {
      preloads.push(href);
      return '';
    },
  );
  return page.replace(
    /<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>/,
    (_tag, entry: string) =>
      `<script src="/after-paint.js" defer data-entry="${entry}" data-preload="${preloads.join(' ')}"></script>`,
  );
}
