import { type ComponentType, Suspense, lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { CLIENT_PATHS } from '../../shared/routes.ts';
import JoinScreen from '../features/join/join-screen.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { RequireUsername } from './layout/require-username.tsx';
import { RouteErrorBoundary } from './layout/route-error-boundary.tsx';
import { RouteFallback } from './layout/route-fallback.tsx';
import { WithToasts } from './layout/with-toasts.tsx';

/**
 * A screen loaded when first shown, together with what every screen past the join page needs
 * (`ScreenProviders`): both downloads start at once, so neither waits for the other.
 */
function lazyScreen<Props extends object>(load: () => Promise<{ default: ComponentType<Props> }>) {
  return lazy(async () => {
    const [{ ScreenProviders }, { default: Screen }] = await Promise.all([
      import('./screen-providers.tsx'),
      load(),
    ]);
    function WithScreenProviders(props: Props) {
      return (
        <ScreenProviders>
          <Screen {...props} />
        </ScreenProviders>
      );
    }
    return { default: WithScreenProviders };
  });
}

// Route-level code splitting: the join page, the first page of most visits, is part of the
// entry and needs nothing else; every other screen loads when first shown (decision 070).
const HomeRoute = lazyScreen(() => import('./routes/home-route.tsx'));
const MemoriesScreen = lazyScreen(() => import('../features/memories/memories-screen.tsx'));
const MemoryPage = lazyScreen(() => import('../features/memories/memory-page.tsx'));
const QuestionsScreen = lazyScreen(() => import('../features/questions/questions-screen.tsx'));
const QaRoomScreen = lazyScreen(() => import('../features/questions/qa-room-screen.tsx'));
const SpeakerFormScreen = lazyScreen(() => import('../features/speakers/speaker-form-screen.tsx'));
const SpeakerLoginScreen = lazyScreen(
  () => import('../features/speakers/speaker-login-screen.tsx'),
);
const SpeakerDashboardScreen = lazyScreen(
  () => import('../features/speakers/speaker-dashboard-screen.tsx'),
);
const AdminScreen = lazyScreen(() => import('../features/admin/admin-screen.tsx'));

/** Every route of the spec's section 2. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Suspense fallback={<RouteFallback />}>
          <Routes>
            <Route path={CLIENT_PATHS.join} element={<JoinScreen />} />
            <Route element={<WithToasts />}>
              {/* The admin screen has its own bar: the attendee header is about the attendee. */}
              <Route path={CLIENT_PATHS.admin} element={<AdminScreen />} />
              <Route element={<AppLayout />}>
                <Route element={<RequireUsername />}>
                  <Route path={CLIENT_PATHS.home} element={<HomeRoute />} />
                  <Route path={CLIENT_PATHS.memories} element={<MemoriesScreen />} />
                  <Route path={CLIENT_PATHS.memoryForm} element={<MemoriesScreen openForm />} />
                  <Route path={CLIENT_PATHS.questions} element={<QuestionsScreen />} />
                </Route>
                <Route path={CLIENT_PATHS.memory} element={<MemoryPage />} />
                <Route path={CLIENT_PATHS.speakersCard} element={<QaRoomScreen />} />
                <Route path={CLIENT_PATHS.speakerForm} element={<SpeakerFormScreen />} />
                <Route path={CLIENT_PATHS.speakerLogin} element={<SpeakerLoginScreen />} />
                <Route path={CLIENT_PATHS.speakerDashboard} element={<SpeakerDashboardScreen />} />
              </Route>
              <Route path="*" element={<AppLayout notFound />} />
            </Route>
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
