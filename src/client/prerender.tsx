import { type ReactNode, StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { CLIENT_PATHS } from '../shared/routes.ts';
import { AppLayout } from './app/layout/app-layout.tsx';
import { AppProviders } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import HomeRoute from './app/routes/home-route.tsx';
import QaRoomRoute from './app/routes/qa-room-route.tsx';
import { ScreenProviders } from './app/screen-providers.tsx';
import { setPageAnswers } from './lib/page-data.ts';
import { queryClient } from './lib/query-client.ts';
import { LANGUAGES, type Language, SOURCE_LANGUAGE } from '../shared/i18n/languages.ts';
import type { Catalog } from '../shared/i18n/messages.ts';
import { showCatalog } from './i18n/language.ts';

/** Every catalog, compiled as the client's are: the server renders in each language. */
const CATALOGS = import.meta.glob<Catalog>('../shared/i18n/catalogs/*.json', {
  query: '?catalog',
  import: 'default',
  eager: true,
});

/** Renders from now on in `language` (decision 246). */
function inLanguage(language: Language): void {
  const catalog = CATALOGS[`../shared/i18n/catalogs/${language}.json`];
  if (!catalog) throw new Error(`No catalog for ${language}`);
  showCatalog(language, catalog);
}

const render = (location: string, routes: ReactNode) =>
  renderToString(
    <StrictMode>
      <AppProviders>
        <StaticRouter location={location}>{routes}</StaticRouter>
      </AppProviders>
    </StrictMode>,
  );

/**
 * A screen under the attendee header as its first render draws it before any data: the header,
 * the screen's layout and its loading places. The server puts it in the page and React's first
 * render replaces it (decision 173): the attendee's own parts (their name, their outbox) and the
 * data come with the code.
 */
const renderShell = (path: string, screen: ReactNode, location = path) =>
  render(
    location,
    <ScreenProviders>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path={path} element={screen} />
        </Route>
      </Routes>
    </ScreenProviders>,
  );

/** The screens the server renders with their first lists (decision 185). */
const SCREENS = {
  home: { path: CLIENT_PATHS.home, screen: <HomeRoute /> },
  speakersCard: { path: CLIENT_PATHS.speakersCard, screen: <QaRoomRoute /> },
} as const;

/**
 * A screen under the attendee header as it looks at `location` (path and query) with its first
 * lists: `answers` are their answers by address (`FIRST_LISTS`), which its queries take as they
 * render. The attendee's own parts still come with the code. Renders one at a time: the query
 * cache is the app's one, emptied before and after.
 */
export function renderScreen(
  name: keyof typeof SCREENS,
  location: string,
  answers: Record<string, unknown>,
  language: Language = SOURCE_LANGUAGE,
): string {
  inLanguage(language);
  queryClient.clear();
  setPageAnswers(answers);
  try {
    return renderShell(SCREENS[name].path, SCREENS[name].screen, location);
  } finally {
    queryClient.clear();
    setPageAnswers({});
  }
}

/**
 * The first screens as HTML in every language (decision 246), made at build time (`scripts/prerender.mjs`): the join page (the
 * same tree `main.tsx` renders, at `/`, so the browser paints it before any script and React
 * hydrates it, decision 106), and the shells of /home and the Q&A room (decision 173). The
 * event's name and logo are `EVENT_NAME_SLOT` and `LOGO_URL_SLOT`, which the server fills in.
 * The server renders /home and the Q&A room again with their data (`renderScreen`) when it can.
 */
export function renderPages(): Record<Language, Record<'join' | 'home' | 'qa', string>> {
  const pages = {} as Record<Language, Record<'join' | 'home' | 'qa', string>>;
  for (const language of LANGUAGES) {
    inLanguage(language);
    pages[language] = {
      join: render(CLIENT_PATHS.join, <AppRoutes />),
      home: renderShell(SCREENS.home.path, SCREENS.home.screen),
      qa: renderShell(SCREENS.speakersCard.path, SCREENS.speakersCard.screen),
    };
  }
  return pages;
}
