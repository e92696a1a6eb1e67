import { useEffect } from 'react';
import { CLIENT_PATHS } from '../../shared/routes.ts';
import { whenFirstInput } from './when-first-input.ts';
import { whenIdle } from './when-idle.ts';

/** How long a join page nobody touches waits before it follows the branding live. */
const JOIN_PAGE_LIVE_AFTER_MS = 10_000;

/** The join page in use: its first input, or once idle 10 s after it opened. */
const joinPageInUse = (): Promise<void> =>
  Promise.race([
    whenFirstInput(),
    new Promise((resolve) => setTimeout(resolve, JOIN_PAGE_LIVE_AFTER_MS)).then(() => whenIdle()),
  ]);

/**
 * Keeps the branding live on every screen, the join page included: the `settingsUpdated` event
 * of the live connection, and `GET /api/config` again at every connect and every minute (the
 * fallback when the socket is down). Loaded once the first screen has painted, like the socket;
 * on the join page, which the server sends in the branding of the moment, once it is used, or
 * idle 10 s after it opened (decision 247): the code it loads is what every other screen
 * shares, and a phone opening the page runs none of it while its reader takes it in.
 */
export function useLiveBranding(): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void (window.location.pathname === CLIENT_PATHS.join ? joinPageInUse() : whenIdle())
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
