import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router';

// Toasts load beside the screen, not before it; the join page never shows one.
const Toasts = lazy(() => import('./toasts.tsx'));

/** The screens past the join page, with the app's toasts. */
export function WithToasts() {
  return (
    <>
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      <Outlet />
    </>
  );
}
