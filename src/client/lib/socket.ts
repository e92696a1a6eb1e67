import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../shared/events.ts';
import {
  SOCKET_CONNECT_TIMEOUT,
  SOCKET_RECONNECT_DELAY_MAX,
  SOCKET_RECONNECT_DELAY_MIN,
} from '../../shared/constants.ts';
import { whenIdle } from './when-idle.ts';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: Promise<AppSocket> | undefined;

/**
 * The one socket connection of the app (same origin), opened on first use. Its library loads
 * then, once the screen that uses it has painted and the browser is idle, not with the screen's
 * code (decisions 070 and 093).
 * Features subscribe to its events and merge them into their query caches; polling stays as the
 * fallback, and covers the moment before the socket is there.
 */
export function loadSocket(): Promise<AppSocket> {
  socket ??= whenIdle()
    .then(() => import('socket.io-client'))
    .then(({ io }) =>
      io({
        path: '/socket.io',
        transports: ['websocket', 'polling'],
        reconnectionDelay: SOCKET_RECONNECT_DELAY_MIN,
        reconnectionDelayMax: SOCKET_RECONNECT_DELAY_MAX,
        timeout: SOCKET_CONNECT_TIMEOUT,
      }),
    );
  return socket;
}

/**
 * Runs `subscribe` with the socket as soon as it is there; the answer undoes the subscription,
 * or cancels it if the socket has not come yet. Made for `useEffect`.
 */
export function withSocket(subscribe: (socket: AppSocket) => () => void): () => void {
  let unsubscribe: (() => void) | undefined;
  let cancelled = false;
  void loadSocket().then((loaded) => {
    if (!cancelled) unsubscribe = subscribe(loaded);
  });
  return () => {
    cancelled = true;
    unsubscribe?.();
  };
}
