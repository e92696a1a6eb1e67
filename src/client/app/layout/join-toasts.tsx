import { Suspense, lazy } from 'react';
import { useLocation } from 'react-router';

const Toasts = lazy(() => import('./toasts.tsx'));

/**
 * The join page loads no toasts, but those a screen sent it with (`state.toasts`): what an
 * attendee's erasure removed, shown on the page they land on (decision 214).
 */
export function JoinToasts() {
  const state: unknown = useLocation().state;
  const wanted = typeof state === 'object' && state !== null && 'toasts' in state;
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}
