/**
 * The app's one socket (decision 100), without the query caches: the join page keeps its
 * branding live through it before TanStack Query is loaded (decision 162).
 */
import type { Socket } from 'socket.io-client';
import {
  SOCKET_CONNECT_TIMEOUT,
  SOCKET_RECONNECT_DELAY_MAX,
  SOCKET_RECONNECT_DELAY_MIN,
} from '../../shared/constants.ts';
import {
  type ClientToServerEvents,
  type ServerEvent,
  type ServerToClientEvents,
  type WatchRequest,
  roomFor,
  serverEventSchemas,
} from '../../shared/events.ts';
import { whenIdle } from './when-idle.ts';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How long a (re)join of a room waits for the server's acknowledgement before going on. */
const WATCH_ACK_TIMEOUT = 5_000;

/** Someone listening: to every parsed event, and to every connect once its rooms are joined. */
export interface Listener {
  event: (event: ServerEvent, payload: unknown) => void;
  connect: () => void;
}

/** A room being watched: `joined` settles once the server has acknowledged the watch. */
export interface RoomWatch {
  joined: Promise<boolean>;
  /** Stops watching; the last watcher of a room out leaves it. */
  leave: () => void;
}

const isServerEvent = (event: string): event is ServerEvent =>
  Object.hasOwn(serverEventSchemas, event);

/**
 * The app's live connection over one socket: it connects on first use, reconnects by itself,
 * keeps the rooms the screens watch (counted, so two screens share one) and joins them again
 * after every reconnect, parses every event with its schema from `shared/events.ts` (a payload
 * that does not parse is dropped) and hands it to the listeners. On every connect, the first one
 * included, it tells the listeners once the rooms are joined again: events sent while there was
 * no connection were missed, so the screens' lists catch up then. `open` makes the socket.
 */
export function createLive(open: () => Promise<LiveSocket>) {
  let connection: Promise<LiveSocket> | undefined;
  /** The socket, once open. */
  let opened: LiveSocket | undefined;
  const rooms = new Map<
    string,
    { request: WatchRequest; watchers: number; joined: Promise<boolean> }
  >();
  const listeners = new Set<Listener>();

  /** Sends a watch or unwatch; answers whether the server acknowledged it in time. */
  const send = (
    socket: LiveSocket,
    event: 'watch' | 'unwatch',
    request: WatchRequest,
  ): Promise<boolean> =>
    socket
      .timeout(WATCH_ACK_TIMEOUT)
      .emitWithAck(event, request)
      .then(
        (done: unknown) => done === true,
        () => false,
      );

  const connect = (): Promise<LiveSocket> =>
    (connection ??= open().then((socket) => {
      socket.onAny((event: string, payload: unknown) => {
        if (!isServerEvent(event)) return;
        const parsed = serverEventSchemas[event].safeParse(payload);
        if (!parsed.success) return;
        for (const listener of listeners) listener.event(event, parsed.data);
      });
      opened = socket;
      // A server that stops (a restart, a deploy) says goodbye first, and socket.io does not
      // reconnect after that on its own: try again after a moment, then with its backoff until
      // the server is back (decision 130).
      let retry: ReturnType<typeof setTimeout> | undefined;
      socket.on('disconnect', (reason) => {
        if (reason !== 'io server disconnect') return;
        clearTimeout(retry);
        const delay = SOCKET_RECONNECT_DELAY_MIN * (1 + Math.random());
        retry = setTimeout(() => {
          if (!socket.connected) socket.connect();
        }, delay);
      });
      socket.on('connect', () => {
        // The server forgot the rooms with the old connection: join them again, then catch up.
        const joins = [...rooms.values()].map((room) => {
          room.joined = send(socket, 'watch', room.request);
          return room.joined;
        });
        void Promise.all(joins).then(() => {
          for (const listener of listeners) listener.connect();
        });
      });
      return socket;
    }));

  return {
    /** Starts the connection if need be; the answer stops listening. */
    listen: (listener: Listener): (() => void) => {
      listeners.add(listener);
      void connect();
      return () => {
        listeners.delete(listener);
      };
    },

    /** Watches a room: joins it now if connected, else at the next connect, and after each. */
    watchRoom: (request: WatchRequest): RoomWatch => {
      const key = roomFor(request);
      let room = rooms.get(key);
      if (room) {
        room.watchers += 1;
      } else {
        const entry = { request, watchers: 1, joined: Promise.resolve(false) };
        entry.joined = connect().then((socket) => {
          if (rooms.get(key) !== entry) return false; // left before the socket came
          if (socket.connected) return send(socket, 'watch', request);
          // The next connect joins it with the others (that listener was added first).
          return new Promise<boolean>((resolve) => {
            socket.once('connect', () => resolve(rooms.get(key) === entry ? entry.joined : false));
          });
        });
        rooms.set(key, entry);
        room = entry;
      }
      const joined = room.joined;
      let left = false;
      return {
        joined,
        leave: () => {
          const current = rooms.get(key);
          if (left || !current) return;
          left = true;
          current.watchers -= 1;
          if (current.watchers > 0) return;
          rooms.delete(key);
          // Rooms end with their connection: after a drop there is nothing to leave.
          if (opened?.connected) void send(opened, 'unwatch', request);
        },
      };
    },
  };
}

/**
 * The one live connection of the app (same origin). The socket library loads once the screen
 * that needs it has painted and the browser is idle, not with the screen's code (decisions 070
 * and 093); polling stays the fallback, and covers the moment before the socket is there.
 */
export const live = createLive(async () => {
  await whenIdle();
  const { io } = await import('socket.io-client');
  return io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    reconnectionDelay: SOCKET_RECONNECT_DELAY_MIN,
    reconnectionDelayMax: SOCKET_RECONNECT_DELAY_MAX,
    timeout: SOCKET_CONNECT_TIMEOUT,
  });
});
