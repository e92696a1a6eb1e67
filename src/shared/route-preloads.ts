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

const isId = (value: string | null): value is string =>
  value !== null && /^[0-9a-f-]{36}$/i.test(value);

/** The gallery's first page, as `features/memories/api/get-memories.ts` asks for it. */
const galleryFirstPage = () => [`${API_PATHS.memoryList}?limit=${LIMITS.pageSizeDefault}`];

/** The routes whose pages name their code and first data, by the names of `CLIENT_ROUTES`. */
export const ROUTE_PRELOADS: Partial<Record<ClientRouteName, RoutePreload>> = {
  home: { modules: [SCREEN_PROVIDERS, FRAME, 'app/routes/home-route.tsx'], data: galleryFirstPage },
  memories: {
    modules: [SCREEN_PROVIDERS, FRAME, 'features/memories/memories-screen.tsx'],
    data: galleryFirstPage,
  },
  speakersCard: {
    modules: [SCREEN_PROVIDERS, FRAME, 'features/questions/qa-room-screen.tsx'],
    data: (search) => {
      const speaker = search.get('speaker');
      return [
        API_PATHS.speakersCard,
        ...(isId(speaker)
          ? [`${API_PATHS.questionsRealtime}?speakerId=${speaker}&limit=${LIMITS.pageSizeMax}`]
          : []),
      ];
    },
  },
  questions: { modules: [SCREEN_PROVIDERS, FRAME, 'features/questions/questions-screen.tsx'] },
};

/** What the route at `pathname` loads before its first render, if the server names any. */
export function routePreload(pathname: string): RoutePreload | undefined {
  const name = clientRouteAt(pathname);
  return name ? ROUTE_PRELOADS[name] : undefined;
}
