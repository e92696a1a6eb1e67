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
                <Route path={CLIENT_PATHS.memories} element={null} />
                <Route path={CLIENT_PATHS.memoryForm} element={null} />
                <Route path={CLIENT_PATHS.questions} element={null} />
              </Route>
              <Route path={CLIENT_PATHS.memory} element={null} />
              <Route path={CLIENT_PATHS.speakersCard} element={null} />
              <Route path={CLIENT_PATHS.speakerForm} element={null} />
              <Route path={CLIENT_PATHS.speakerLogin} element={null} />
              <Route path={CLIENT_PATHS.speakerDashboard} element={null} />
            </Route>
            <Route path="*" element={<AppLayout notFound />} />
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
