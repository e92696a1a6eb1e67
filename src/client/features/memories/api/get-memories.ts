import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { FIRST_LISTS } from '../../../../shared/route-preloads.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Memory, memoryListSchema } from '../../../../shared/schemas/memory.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { takePageAnswer } from '../../../lib/page-data.ts';

export const GALLERY_PAGE_SIZE = LIMITS.pageSizeDefault;

/** GET /api/memory: one page, newest first; `before` pages back in time. */
export async function fetchMemoriesPage(
  before: string | undefined,
  signal?: AbortSignal,
): Promise<Memory[]> {
  const query = new URLSearchParams({ limit: String(GALLERY_PAGE_SIZE) });
  if (before) query.set('before', before);
  return apiCall(memoryListSchema, `${API_PATHS.memoryList}?${query.toString()}`, { signal });
}

export type GalleryData = InfiniteData<Memory[], string | undefined>;

export const galleryQueryKey = ['memories', 'gallery'] as const;

/**
 * The gallery: pages of memories, polled every 3 s (the spec's interval, the fallback when the
 * socket is down); a poll that finds nothing new is a 304 answered from the browser's cache.
 */
export const galleryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: galleryQueryKey,
    queryFn: ({ pageParam, signal }) => fetchMemoriesPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length < GALLERY_PAGE_SIZE ? undefined : lastPage.at(-1)?._id,
    refetchInterval: POLL_INTERVALS.gallery,
    // The first page the server rendered /home with, when the page came with it (decision 185).
    initialData: () => {
      const first = takePageAnswer(memoryListSchema, FIRST_LISTS.gallery);
      return first && { pages: [first], pageParams: [undefined] };
    },
  });

export const useGallery = () => useInfiniteQuery(galleryQueryOptions());
