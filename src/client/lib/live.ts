import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import {
  type ServerEvent,
  type ServerEventPayload,
  type WatchRequest,
  roomFor,
} from '../../shared/events.ts';
import { live } from './live-connection.ts';

/** What an event changes in the query caches, given its parsed payload. */
export type LiveHandlers = {
  [E in ServerEvent]?: (payload: ServerEventPayload<E>, client: QueryClient) => void;
};

export interface LiveUpdates {
  /** Which caches each event updates, and how (merge by id, never twice). */
  on?: LiveHandlers;
  /** The queries refetched on every connect, the first one included (what came before it). */
  refetchOnConnect?: readonly QueryKey[];
  /** Runs on every connect before those refetches: what a list's loader must know of it. */
  onConnect?: () => void;
  /** The room whose events the screen needs; events for everybody need none. */
  room?: WatchRequest | null | undefined;
}

/**
 * Keeps a screen's query caches live while it is shown: the one mechanism every feature uses.
 * Features say which caches an event updates (their `use-live-*.ts` hooks); the connection, the
 * rooms and the catch-up after a connect are this module's.
 */
export function useLiveUpdates({ on, refetchOnConnect, onConnect, room }: LiveUpdates): void {
  const client = useQueryClient();
  const onEvent = useEffectEvent((event: ServerEvent, payload: unknown) => {
    // The payload was parsed with this event's schema.
    const handle = on?.[event] as ((payload: unknown, client: QueryClient) => void) | undefined;
    handle?.(payload, client);
  });
  const catchUp = useEffectEvent(() => {
    onConnect?.();
    for (const queryKey of refetchOnConnect ?? []) void client.invalidateQueries({ queryKey });
  });
  useEffect(
    () =>
      live.listen({
        event: (event, payload) => onEvent(event, payload),
        connect: () => catchUp(),
      }),
    [],
  );

  const roomName = room ? roomFor(room) : null;
  const currentRoom = useEffectEvent(() => room);
  useEffect(() => {
    const request = currentRoom();
    if (!roomName || !request) return undefined;
    return live.watchRoom(request).leave;
  }, [roomName]);
}
