import { LIMITS } from './constants.ts';
import { API_PATHS, type ClientRouteName, clientRouteAt } from './routes.ts';

/**
 * What a client route loads before its first render, so the server can name it in the page and
 * the browser fetches it at once, beside the entry, instead of after it (decision 072):
 * `modules` are the route's lazily imported source modules, as Vite's build manifest keys them
 * (relative to src/client, the same paths as the router's `import()` calls); `data` gives the
 * GET calls the screen makes first, exactly as the client makes them.
 */
export interface RoutePreload {
  modules: readonly string[];
  data?: (search: URLSearchParams) => string[];
}

/** Loaded beside every screen past the join page (`lazyScreen` in the router). */
const SCREEN_PROVIDERS = 'app/screen-providers.tsx';
/** The frame (header, outbox) of the screens under the attendee header, loaded beside them. */
const FRAME = 'app/layout/app-layout.tsx';

/** Whether a query's value is an id (a UUID), which a page may name in its preloads. */
export const isId = (value: string | null): value is string =>
  value !== null && /^[0-9a-f-]{36}$/i.test(value);

/**
 * The first lists of the screens, exactly as the client asks for them: the page preloads them,
 * or carries their answers when the server rendered the screen with them (decision 185), and
 * the client's queries take those answers by these addresses.
 */
export const FIRST_LISTS = {
  /** The gallery's first page (`features/memories/api/get-memories.ts`). */
  gallery: `${API_PATHS.memoryList}?limit=${LIMITS.pageSizeDefault}`,
  /** The Q&A room's speakers. */
  speakersCard: API_PATHS.speakersCard,
  /** A speaker's latest questions, as the Q&A room loads them first. */
  speakerQuestions: (speakerId: string) =>
    `${API_PATHS.questionsRealtime}?speakerId=${encodeURIComponent(speakerId)}&limit=${LIMITS.pageSizeMax}`,
} as const;

/** The id of the page's data block (`<script type="application/json">`): those answers, by address. */
export const PAGE_DATA_ID = 'confab-page-data';

const galleryFirstPage = () => [FIRST_LISTS.gallery];

/** The routes whose pages name their code and first data, by the names of `CLIENT_ROUTES`. */
export const ROUTE_PRELOADS: Partial<Record<ClientRouteName, RoutePreload>> = {
  home: { modules: [SCREEN_PROVIDERS, FRAME, 'app/routes/home-route.tsx'], data: galleryFirstPage },
  memories: {
    modules: [SCREEN_PROVIDERS, FRAME, 'features/memories/memories-screen.tsx'],
    data: galleryFirstPage,
  },
  speakersCard: {
    modules: [SCREEN_PROVIDERS, FRAME, 'app/routes/qa-room-route.tsx'],
    data: (search) => {
      const speaker = search.get('speaker');
      return [
        FIRST_LISTS.speakersCard,
        ...(isId(speaker) ? [FIRST_LISTS.speakerQuestions(speaker)] : []),
      ];
    },
  },
  questions: { modules: [SCREEN_PROVIDERS, FRAME, 'features/questions/questions-screen.tsx'] },
  // The programme's screens read the schedule first (a talk's page for its room and time zone).
  schedule: {
    modules: [SCREEN_PROVIDERS, FRAME, 'features/programme/schedule-screen.tsx'],
    data: () => [API_PATHS.schedule],
  },
  session: {
    modules: [SCREEN_PROVIDERS, FRAME, 'app/routes/session-route.tsx'],
    data: () => [API_PATHS.schedule],
  },
};

/** What the route at `pathname` loads before its first render, if the server names any. */
export function routePreload(pathname: string): RoutePreload | undefined {
  const name = clientRouteAt(pathname);
  return name ? ROUTE_PRELOADS[name] : undefined;
}
