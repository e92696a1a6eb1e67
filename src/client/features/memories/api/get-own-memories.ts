import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type OwnMemories, ownMemoriesSchema } from '../../../../shared/schemas/memory.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { useAttendeeToken } from '../../../lib/attendee-token.ts';

/** GET /api/memories/mine: the ids of the memories this attendee's token posted. */
export const fetchOwnMemories = (token: string, signal?: AbortSignal): Promise<OwnMemories> =>
  apiCall(ownMemoriesSchema, API_PATHS.ownMemories, { token, signal });

export const ownMemoriesQueryKey = ['memories', 'mine'] as const;

export const ownMemoriesQueryOptions = (token: string | undefined) =>
  queryOptions({
    queryKey: ownMemoriesQueryKey,
    queryFn: ({ signal }) => fetchOwnMemories(token ?? '', signal),
    enabled: Boolean(token),
    // Only this attendee changes it (and the answers to their posts and deletes update it).
    staleTime: 60_000,
    // A token the server no longer takes means no own memories to offer to delete.
    retry: false,
  });

/** Which memories are the attendee's own (they may delete those): a set of ids. */
export function useOwnMemoryIds(): ReadonlySet<string> {
  const [token] = useAttendeeToken();
  const query = useQuery(ownMemoriesQueryOptions(token));
  return useMemo(() => new Set(query.data?.ids ?? []), [query.data]);
}
