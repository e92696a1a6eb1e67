import { type ComponentType, type ReactElement, Suspense, isValidElement, lazy } from 'react';
import { BrowserRouter, Route, Routes, createRoutesFromElements, matchRoutes } from 'react-router';
import {
  CLIENT_PATHS,
  CLIENT_ROUTES,
  type ClientRoute,
  type ClientRouteName,
} from '../../shared/routes.ts';
import JoinScreen from '../features/join/join-screen.tsx';
import { JoinToasts } from './layout/join-toasts.tsx';
import { RequireUsername } from './layout/require-username.tsx';
import { RouteErrorBoundary } from './layout/route-error-boundary.tsx';
import { RouteFallback } from './layout/route-fallback.tsx';
import { WithToasts } from './layout/with-toasts.tsx';

/** A lazily loaded screen that can start loading before it is rendered. */
type PreloadableScreen<Props> = ComponentType<Props> & { preload: () => Promise<unknown> };

const isPreloadable = (type: unknown): type is PreloadableScreen<object> =>
  typeof type === 'function' && 'preload' in type;

/**
 * A screen loaded when first shown, together with what every screen past the join page needs
 * (`ScreenProviders`): both downloads start at once, so neither waits for the other. Once
 * loaded, it renders at once, without suspending: `preloadRoute` loads the first screen before
 * the first render, so a visit shows its screen in one go, not a spinner first (decision 093).
 */
function lazyScreen<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
  { withProviders = true }: { withProviders?: boolean } = {},
): PreloadableScreen<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const preload = () =>
    (loading ??= Promise.all([
      withProviders ? import('./screen-providers.tsx') : undefined,
      load(),
    ]).then(
      ([providers, { default: Screen }]) => {
        if (!providers) return (loaded = Screen);
        const { ScreenProviders } = providers;
        function WithScreenProviders(props: Props) {
          return (
            <ScreenProviders>
              <Screen {...props} />
            </ScreenProviders>
          );
        }
        loaded = WithScreenProviders;
        return loaded;
      },
      (error: unknown) => {
        // A failed download is tried again by the next render, not remembered.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function LazyScreen(props: Props) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(LazyScreen, { preload });
}

// Route-level code splitting: the join page, the first page of most visits, is part of the
// entry and needs nothing else; every other screen loads when first shown (decision 070), and
// so does the frame around them (header, outbox), which needs no providers of its own.
const AppLayout = lazyScreen<{ notFound?: boolean }>(
  () => import('./layout/app-layout.tsx').then((layout) => ({ default: layout.AppLayout })),
  { withProviders: false },
);
const HomeRoute = lazyScreen(() => import('./routes/home-route.tsx'));
const MemoriesScreen = lazyScreen(() => import('../features/memories/memories-screen.tsx'));
const MemoryPage = lazyScreen(() => import('../features/memories/memory-page.tsx'));
const QuestionsScreen = lazyScreen(() => import('../features/questions/questions-screen.tsx'));
const QaRoomRoute = lazyScreen(() => import('./routes/qa-room-route.tsx'));
const SpeakerFormScreen = lazyScreen(() => import('../features/speakers/speaker-form-screen.tsx'));
const SpeakerLoginScreen = lazyScreen(
  () => import('../features/speakers/speaker-login-screen.tsx'),
);
const SpeakerDashboardRoute = lazyScreen(() => import('./routes/speaker-dashboard-route.tsx'));
const AdminRoute = lazyScreen(() => import('./routes/admin-route.tsx'));
const SpeakerPresenterRoute = lazyScreen(() => import('./routes/speaker-presenter-route.tsx'));
const WallRoute = lazyScreen(() => import('./routes/wall-route.tsx'));
const ScheduleScreen = lazyScreen(() => import('../features/programme/schedule-screen.tsx'));
const SessionRoute = lazyScreen(() => import('./routes/session-route.tsx'));
const PrivacyScreen = lazyScreen(() => import('../features/join/privacy-screen.tsx'));
const ProjectorRoute = lazyScreen<{ mode: 'room' | 'session' | 'overlay' }>(
  () => import('./routes/projector-route.tsx'),
);

/** The screen of every client route; the routes themselves are `CLIENT_ROUTES`. */
const SCREENS: Record<ClientRouteName, ReactElement> = {
  join: <JoinScreen />,
  admin: <AdminRoute />,
  home: <HomeRoute />,
  memories: <MemoriesScreen />,
  memoryForm: <MemoriesScreen openForm />,
  questions: <QuestionsScreen />,
  memory: <MemoryPage />,
  memoryShare: <MemoryPage />,
  speakersCard: <QaRoomRoute />,
  speakerForm: <SpeakerFormScreen />,
  speakerLogin: <SpeakerLoginScreen />,
  speakerDashboard: <SpeakerDashboardRoute />,
  speakerPresent: <SpeakerPresenterRoute />,
  wall: <WallRoute />,
  schedule: <ScheduleScreen />,
  session: <SessionRoute />,
  privacy: <PrivacyScreen />,
  roomPresent: <ProjectorRoute mode="room" />,
  sessionPresent: <ProjectorRoute mode="session" />,
  sessionOverlay: <ProjectorRoute mode="overlay" />,
};

/** The routes drawn under the attendee header, those for joined attendees or the others. */
const headerRoutes = (joined: boolean) =>
  (Object.entries(CLIENT_ROUTES) as [ClientRouteName, ClientRoute][])
    .filter(([, route]) => route.header && (route.joined ?? false) === joined)
    .map(([name, route]) => <Route key={name} path={route.path} element={SCREENS[name]} />);

/** Every route of the spec's section 2. */
const routes = (
  <>
    {/* The join page is the entry: nothing loads after it, not even the toasts (but one sent). */}
    <Route
      path={CLIENT_PATHS.join}
      element={
        <>
          <JoinToasts />
          {SCREENS.join}
        </>
      }
    />
    <Route element={<WithToasts />}>
      <Route path={CLIENT_PATHS.admin} element={SCREENS.admin} />
      {/* Full screen on a projector: no header. */}
      <Route path={CLIENT_PATHS.speakerPresent} element={SCREENS.speakerPresent} />
      <Route path={CLIENT_PATHS.wall} element={SCREENS.wall} />
      <Route path={CLIENT_PATHS.roomPresent} element={SCREENS.roomPresent} />
      <Route path={CLIENT_PATHS.sessionPresent} element={SCREENS.sessionPresent} />
      <Route path={CLIENT_PATHS.sessionOverlay} element={SCREENS.sessionOverlay} />
      <Route element={<AppLayout />}>
        <Route element={<RequireUsername />}>{headerRoutes(true)}</Route>
        {headerRoutes(false)}
      </Route>
      <Route path="*" element={<AppLayout notFound />} />
    </Route>
  </>
);

/**
 * Loads the code of the screen at `pathname` (a no-op for the join page, which is part of the
 * entry). `main.tsx` awaits it before the first render; a failed download is left to the
 * screen's own render, which tries again and shows the error boundary if it fails.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(createRoutesFromElements(routes), pathname) ?? [];
  const loads = matches.flatMap(({ route }) => {
    const type: unknown = isValidElement(route.element) ? route.element.type : undefined;
    return isPreloadable(type) ? [type.preload().catch(() => undefined)] : [];
  });
  await Promise.all(loads);
}

/** The app's routes, inside whichever router gives the location. */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<RouteFallback />}>
        <Routes>{routes}</Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}

/** The app's routes, in the browser's history. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
