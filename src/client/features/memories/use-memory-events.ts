import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { withMemoryEvents } from '../../lib/memory-events.ts';
import { type GalleryData, galleryQueryKey } from './api/get-memories.ts';
import { memoryQueryKey } from './api/get-memory.ts';
import { mergeMemories, removeMemory } from './memory-cache.ts';

/**
 * Keeps the gallery live: memories created or deleted anywhere are merged into the cached
 * pages by id (never twice), and each connect of the socket refetches what came before it.
 */
export function useMemoryEvents(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      withMemoryEvents({
        created: (memory) =>
          queryClient.setQueryData<GalleryData>(galleryQueryKey, (data) =>
            mergeMemories(data, [memory]),
          ),
        deleted: (id) => {
          queryClient.setQueryData<GalleryData>(galleryQueryKey, (data) => removeMemory(data, id));
          void queryClient.invalidateQueries({ queryKey: memoryQueryKey(id) });
        },
        connected: () => {
          void queryClient.invalidateQueries({ queryKey: galleryQueryKey });
        },
      }),
    [queryClient],
  );
}
