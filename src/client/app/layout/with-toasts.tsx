import { Suspense, lazy, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { whenIdle } from '../../lib/when-idle.ts';

// Toasts load after the screen has painted, not with it; the join page never shows one. A toast
// asked for before then waits in Mantine's store and shows when they mount (decision 093).
const Toasts = lazy(() => import('./toasts.tsx'));

/** The screens past the join page, with the app's toasts. */
export function WithToasts() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    let live = true;
    void whenIdle().then(() => {
      if (live) setMounted(true);
    });
    return () => {
      live = false;
    };
  }, []);
  return (
    <>
      {mounted && (
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
      )}
      <Outlet />
    </>
  );
}
