import { useEffect } from 'react';
import { type WatchRequest, roomFor } from '../../shared/events.ts';
import { loadSocket, withSocket } from './socket.ts';

/** The rooms this page watches, counted, so two screens watching one room share it. */
const watched = new Map<string, { request: WatchRequest; count: number }>();
let resubscribing = false;

/** After every (re)connect the server has forgotten our rooms: ask for all of them again. */
function resubscribeOnConnect(): void {
  if (resubscribing) return;
  resubscribing = true;
  void loadSocket().then((socket) =>
    socket.on('connect', () => {
      for (const { request } of watched.values()) void socket.emitWithAck('watch', request);
    }),
  );
}

/** Sends a watch or unwatch now if the socket is connected (else the next connect sends them). */
const send = (event: 'watch' | 'unwatch', request: WatchRequest) =>
  void loadSocket().then((socket) => {
    if (socket.connected) void socket.emitWithAck(event, request);
  });

/** Starts watching a room; the answer stops watching it (the last one out leaves the room). */
export function watchRoom(request: WatchRequest): () => void {
  resubscribeOnConnect();
  const key = roomFor(request);
  const entry = watched.get(key);
  if (entry) {
    entry.count += 1;
  } else {
    watched.set(key, { request, count: 1 });
    send('watch', request);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const current = watched.get(key);
    if (!current) return;
    current.count -= 1;
    if (current.count > 0) return;
    watched.delete(key);
    send('unwatch', request);
  };
}

/** Watches one speaker's questions while the component is shown (nothing when `speakerId` is null). */
export function useWatchSpeaker(speakerId: string | null | undefined): void {
  useEffect(() => {
    if (!speakerId) return undefined;
    return watchRoom({ room: 'speaker', speakerId });
  }, [speakerId]);
}

/** Watches every new question while the component is shown. */
export function useWatchAllQuestions(): void {
  useEffect(() => watchRoom({ room: 'questions' }), []);
}

/**
 * Calls `catchUp` each time the socket connects: the first time, which comes after the screen's
 * lists were fetched (the socket loads once the screen has painted), and after every drop.
 * Events sent before a connect were not received, so the screen catches up then.
 */
export function useSocketCatchUp(catchUp: () => void): void {
  useEffect(
    () =>
      withSocket((socket) => {
        socket.on('connect', catchUp);
        return () => {
          socket.off('connect', catchUp);
        };
      }),
    [catchUp],
  );
}
