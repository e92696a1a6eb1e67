import './ui-kit-screen-styles.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query-client.ts';

/**
 * What every screen past the join page needs and the join page does not: TanStack Query (the
 * app's one client, so its cache outlives any screen) and the rest of the UI kit's styles.
 * It loads beside each screen's own code (`lazyScreen` in the router), not before it.
 */
export function ScreenProviders({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
