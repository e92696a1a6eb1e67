import {
  type InfiniteData,
  type QueryClient,
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
} from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Memory, type MemoryStatus, memorySchema } from '../../../../shared/schemas/memory.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { dropReadsInFlight } from '../../../lib/cached-lists.ts';
import { retryPollOnce } from './errors.ts';

const memoriesSchema = memorySchema.array();

export interface AdminMediaPage {
  search: string;
  before?: string | undefined;
  limit?: number;
  /** Only this status (`pending`: awaiting approval); every status when undefined. */
  status?: MemoryStatus | undefined;
}

/** GET /api/media: memories for moderation, newest first, searched on the server. */
export async function fetchAdminMedia(
  token: string,
  { search, before, limit = LIMITS.pageSizeDefault, status }: AdminMediaPage,
  signal?: AbortSignal,
): Promise<Memory[]> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (search.trim()) params.set('search', search.trim());
  if (before) params.set('before', before);
  if (status) params.set('status', status);
  return apiCall(memoriesSchema, `${API_PATHS.adminMedia}?${params.toString()}`, { token, signal });
}

export const ADMIN_MEDIA_KEY = ['admin', 'media'] as const;

/**
 * One list per search, in pages of 60, polled every 2 s (spec); the polls are cheap because
 * the server answers 304 when nothing changed. The previous results stay on screen while a
 * new search loads.
 */
export const adminMediaQueryOptions = (token: string, search: string, status?: MemoryStatus) =>
  infiniteQueryOptions({
    queryKey: [
      ...ADMIN_MEDIA_KEY,
      status
        ? { search: search.trim().toLowerCase(), status }
        : { search: search.trim().toLowerCase() },
    ],
    queryFn: ({ pageParam, signal }) =>
      fetchAdminMedia(token, { search, before: pageParam, status }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length < LIMITS.pageSizeDefault ? undefined : lastPage[lastPage.length - 1]?._id,
    refetchInterval: POLL_INTERVALS.adminList,
    placeholderData: keepPreviousData,
    retry: retryPollOnce,
  });

export const useAdminMedia = (token: string, search: string, status?: MemoryStatus) =>
  useInfiniteQuery(adminMediaQueryOptions(token, search, status));

type Pages = InfiniteData<Memory[], string | undefined>;

/**
 * The memories of a list's loaded pages that `keep` accepts, each once (pages refetched after
 * new memories arrived can overlap).
 */
export function memoriesOf(
  data: { pages: Memory[][] } | undefined,
  keep: (memory: Memory) => boolean,
): Memory[] {
  const seen = new Set<string>();
  return (data?.pages.flat() ?? []).filter((memory) => {
    if (!keep(memory) || seen.has(memory._id)) return false;
    seen.add(memory._id);
    return true;
  });
}

/** A filter of a cached list (its search, its status), as its key holds it. */
const filterOf = (queryKey: readonly unknown[], name: 'search' | 'status'): string | undefined => {
  const params = queryKey[2] as Partial<Record<typeof name, unknown>> | null | undefined;
  const value = params?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** The same match as the server's: a case-insensitive substring of username or caption. */
export const matchesSearch = (memory: Memory, search: string): boolean =>
  !search ||
  memory.username.toLowerCase().includes(search) ||
  memory.text.toLowerCase().includes(search);

/** Drops a memory from every cached moderation list. */
export function removeFromAdminMedia(queryClient: QueryClient, id: string): void {
  dropReadsInFlight(queryClient, ADMIN_MEDIA_KEY);
  queryClient.setQueriesData<Pages>({ queryKey: ADMIN_MEDIA_KEY }, (data) =>
    data && data.pages.some((page) => page.some((memory) => memory._id === id))
      ? { ...data, pages: data.pages.map((page) => page.filter((memory) => memory._id !== id)) }
      : data,
  );
}

/** Puts a new memory at the top of every cached list it matches, once. */
export function addToAdminMedia(queryClient: QueryClient, memory: Memory): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ADMIN_MEDIA_KEY })) {
    if (!matchesSearch(memory, filterOf(query.queryKey, 'search') ?? '')) continue;
    const status = filterOf(query.queryKey, 'status');
    if (status && status !== memory.status) continue;
    queryClient.setQueryData<Pages>(query.queryKey, (data) => {
      if (!data || data.pages.some((page) => page.some((m) => m._id === memory._id))) return data;
      const [first = [], ...rest] = data.pages;
      return { ...data, pages: [[memory, ...first], ...rest] };
    });
  }
}

/**
 * A memory that changed (approved): its copy is replaced in every cached list, and it leaves the
 * lists of another status (the pending list, once approved).
 */
export function updateInAdminMedia(queryClient: QueryClient, memory: Memory): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ADMIN_MEDIA_KEY })) {
    const status = filterOf(query.queryKey, 'status');
    queryClient.setQueryData<Pages>(query.queryKey, (data) => {
      if (!data || !data.pages.some((page) => page.some((m) => m._id === memory._id))) return data;
      return {
        ...data,
        pages: data.pages.map((page) =>
          status && status !== memory.status
            ? page.filter((m) => m._id !== memory._id)
            : page.map((m) => (m._id === memory._id ? memory : m)),
        ),
      };
    });
  }
}
