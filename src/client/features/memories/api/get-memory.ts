import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Memory, memorySchema } from '../../../../shared/schemas/memory.ts';
import { ApiError, apiCall } from '../../../lib/api-client.ts';

/** GET /api/memory/:id: one memory, for its own page. */
export const fetchMemory = (id: string, signal?: AbortSignal): Promise<Memory> =>
  apiCall(memorySchema, `${API_PATHS.memoryList}/${encodeURIComponent(id)}`, { signal });

export const memoryQueryKey = (id: string) => ['memories', 'item', id] as const;

export const memoryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: memoryQueryKey(id),
    queryFn: ({ signal }) => fetchMemory(id, signal),
    // A memory that is not there (404) or an id that is not one (400) will not appear later.
    retry: (failures, error) =>
      !(error instanceof ApiError && (error.status === 404 || error.status === 400)) &&
      failures < 3,
  });

export const useMemory = (id: string) => useQuery(memoryQueryOptions(id));
