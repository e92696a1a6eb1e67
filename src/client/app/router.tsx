import { Center, Loader } from '@mantine/core';
import { Suspense, lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { CLIENT_PATHS } from '../../shared/routes.ts';
import { AppLayout } from './layout/app-layout.tsx';
import { RequireUsername } from './layout/require-username.tsx';
import { RouteErrorBoundary } from './layout/route-error-boundary.tsx';

// Route-level code splitting: the join page loads only what it shows.
const JoinScreen = lazy(() => import('../features/join/join-screen.tsx'));
const HomeRoute = lazy(() => import('./routes/home-route.tsx'));
const MemoriesScreen = lazy(() => import('../features/memories/memories-screen.tsx'));
const MemoryPage = lazy(() => import('../features/memories/memory-page.tsx'));
const QuestionsScreen = lazy(() => import('../features/questions/questions-screen.tsx'));
const QaRoomScreen = lazy(() => import('../features/questions/qa-room-screen.tsx'));
const SpeakerFormScreen = lazy(() => import('../features/speakers/speaker-form-screen.tsx'));
const SpeakerLoginScreen = lazy(() => import('../features/speakers/speaker-login-screen.tsx'));
const SpeakerDashboardScreen = lazy(
  () => import('../features/speakers/speaker-dashboard-screen.tsx'),
);
const AdminScreen = lazy(() => import('../features/admin/admin-screen.tsx'));

function RouteFallback() {
  return (
    <Center mih="50vh" aria-busy="true">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/** Every route of the spec's section 2. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Suspense fallback={<RouteFallback />}>
          <Routes>
            <Route path={CLIENT_PATHS.join} element={<JoinScreen />} />
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
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
