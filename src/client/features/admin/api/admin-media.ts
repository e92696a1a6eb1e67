import {
  type InfiniteData,
  type QueryClient,
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
} from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Memory, memorySchema } from '../../../../shared/schemas/memory.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { retryPollOnce } from './errors.ts';

const memoriesSchema = memorySchema.array();

export interface AdminMediaPage {
  search: string;
  before?: string | undefined;
  limit?: number;
}

/** GET /api/media: memories for moderation, newest first, searched on the server. */
export async function fetchAdminMedia(
  token: string,
  { search, before, limit = LIMITS.pageSizeDefault }: AdminMediaPage,
  signal?: AbortSignal,
): Promise<Memory[]> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (search.trim()) params.set('search', search.trim());
  if (before) params.set('before', before);
  return apiCall(memoriesSchema, `${API_PATHS.adminMedia}?${params.toString()}`, { token, signal });
}

export const ADMIN_MEDIA_KEY = ['admin', 'media'] as const;

/**
 * One list per search, in pages of 60, polled every 2 s (spec); the polls are cheap because
 * the server answers 304 when nothing changed. The previous results stay on screen while a
 * new search loads.
 */
export const adminMediaQueryOptions = (token: string, search: string) =>
  infiniteQueryOptions({
    queryKey: [...ADMIN_MEDIA_KEY, { search: search.trim().toLowerCase() }],
    queryFn: ({ pageParam, signal }) =>
      fetchAdminMedia(token, { search, before: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length < LIMITS.pageSizeDefault ? undefined : lastPage[lastPage.length - 1]?._id,
    refetchInterval: POLL_INTERVALS.adminList,
    placeholderData: keepPreviousData,
    retry: retryPollOnce,
  });

export const useAdminMedia = (token: string, search: string) =>
  useInfiniteQuery(adminMediaQueryOptions(token, search));

type Pages = InfiniteData<Memory[], string | undefined>;

/** The search of a cached list, as its key holds it. */
const searchOf = (queryKey: readonly unknown[]): string => {
  const params = queryKey[2];
  return params &&
    typeof params === 'object' &&
    'search' in params &&
    typeof params.search === 'string'
    ? params.search
    : '';
};

/** The same match as the server's: a case-insensitive substring of username or caption. */
export const matchesSearch = (memory: Memory, search: string): boolean =>
  !search ||
  memory.username.toLowerCase().includes(search) ||
  memory.text.toLowerCase().includes(search);

/** Drops a memory from every cached moderation list. */
export function removeFromAdminMedia(queryClient: QueryClient, id: string): void {
  queryClient.setQueriesData<Pages>({ queryKey: ADMIN_MEDIA_KEY }, (data) =>
    data && data.pages.some((page) => page.some((memory) => memory._id === id))
      ? { ...data, pages: data.pages.map((page) => page.filter((memory) => memory._id !== id)) }
      : data,
  );
}

/** Puts a new memory at the top of every cached list it matches, once. */
export function addToAdminMedia(queryClient: QueryClient, memory: Memory): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ADMIN_MEDIA_KEY })) {
    if (!matchesSearch(memory, searchOf(query.queryKey))) continue;
    queryClient.setQueryData<Pages>(query.queryKey, (data) => {
      if (!data || data.pages.some((page) => page.some((m) => m._id === memory._id))) return data;
      const [first = [], ...rest] = data.pages;
      return { ...data, pages: [[memory, ...first], ...rest] };
    });
  }
}
