import { useEffect } from 'react';
import { whenIdle } from './when-idle.ts';

/**
 * Keeps the branding live on every screen, the join page included: the `settingsUpdated` event
 * of the live connection, and `GET /api/config` again at every connect and every minute (the
 * fallback when the socket is down). Loaded once the first screen has painted, like the socket.
 */
export function useLiveBranding(): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void whenIdle()
      .then(() => import('./live-branding.ts'))
      .then(({ startLiveBranding }) => {
        if (!stopped) stop = startLiveBranding();
      });
    return () => {
      stopped = true;
      stop?.();
    };
  }, []);
}
