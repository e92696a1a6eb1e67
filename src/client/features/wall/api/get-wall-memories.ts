import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Memory, memoryListSchema } from '../../../../shared/schemas/memory.ts';
import { apiCall } from '../../../lib/api-client.ts';

/** The memories the wall turns through: the newest ones, no more (its memory stays flat). */
export const WALL_SIZE = 60;

export const wallQueryKey = ['wall', 'memories'] as const;

/** GET /api/memory?limit=60: the newest published memories, newest first. */
export const fetchWallMemories = (signal?: AbortSignal): Promise<Memory[]> =>
  apiCall(memoryListSchema, `${API_PATHS.memoryList}?limit=${WALL_SIZE}`, { signal });

/**
 * The wall's one list, polled at the gallery's interval as the fallback of the socket (a poll
 * that finds nothing new is a 304), in the background too: a projector's page is often not the
 * focused window. A failed poll is simply the next poll's to repair.
 */
export const wallQueryOptions = () =>
  queryOptions({
    queryKey: wallQueryKey,
    queryFn: ({ signal }) => fetchWallMemories(signal),
    refetchInterval: POLL_INTERVALS.gallery,
    refetchIntervalInBackground: true,
    retry: 1,
  });

export const useWallMemories = () => useQuery(wallQueryOptions());

/** A memory merged into the wall's list: replaced when known, else added; newest first, capped. */
export function mergeWallMemory(list: Memory[] | undefined, memory: Memory): Memory[] | undefined {
  if (!list) return list;
  const rest = list.filter((item) => item._id !== memory._id);
  return [...rest, memory].sort((a, b) => (a._id < b._id ? 1 : -1)).slice(0, WALL_SIZE);
}
