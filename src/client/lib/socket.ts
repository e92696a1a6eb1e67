import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../shared/events.ts';
import {
  SOCKET_CONNECT_TIMEOUT,
  SOCKET_RECONNECT_DELAY_MAX,
  SOCKET_RECONNECT_DELAY_MIN,
} from '../../shared/constants.ts';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | undefined;

/**
 * The one socket connection of the app (same origin), opened on first use. Features subscribe
 * to its events and merge them into their query caches; polling stays as the fallback.
 */
export function getSocket(): AppSocket {
  socket ??= io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    reconnectionDelay: SOCKET_RECONNECT_DELAY_MIN,
    reconnectionDelayMax: SOCKET_RECONNECT_DELAY_MAX,
    timeout: SOCKET_CONNECT_TIMEOUT,
  });
  return socket;
}
