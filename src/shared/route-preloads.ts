import { LIMITS } from './constants.ts';
import { API_PATHS } from './routes.ts';

/**
 * What a client route loads before its first render, so the server can name it in the page and
 * the browser fetches it at once, beside the entry, instead of after it (decision 072):
 * `modules` are the route's lazily imported source modules, as Vite's build manifest keys them
 * (relative to src/client, the same paths as the router's `import()` calls); `data` gives the
 * GET calls the screen makes first, exactly as the client makes them.
 */
export interface RoutePreload {
  pattern: RegExp;
  modules: readonly string[];
  data?: (search: URLSearchParams) => string[];
}

/** Loaded beside every screen past the join page (`lazyScreen` in the router). */
const SCREEN_PROVIDERS = 'app/screen-providers.tsx';

const isId = (value: string | null): value is string =>
  value !== null && /^[0-9a-f-]{36}$/i.test(value);

export const ROUTE_PRELOADS: readonly RoutePreload[] = [
  {
    pattern: /^\/home\/?$/,
    modules: [SCREEN_PROVIDERS, 'app/routes/home-route.tsx'],
    data: () => [`${API_PATHS.memoryList}?limit=${LIMITS.pageSizeDefault}`],
  },
  {
    pattern: /^\/memories\/?$/,
    modules: [SCREEN_PROVIDERS, 'features/memories/memories-screen.tsx'],
    data: () => [`${API_PATHS.memoryList}?limit=${LIMITS.pageSizeDefault}`],
  },
  {
    pattern: /^\/speakerscard\/?$/,
    modules: [SCREEN_PROVIDERS, 'features/questions/qa-room-screen.tsx'],
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
  {
    pattern: /^\/questions\/?$/,
    modules: [SCREEN_PROVIDERS, 'features/questions/questions-screen.tsx'],
  },
];

/** The preloads of a client path, if it has any. */
export const routePreload = (pathname: string): RoutePreload | undefined =>
  ROUTE_PRELOADS.find((route) => route.pattern.test(pathname));
