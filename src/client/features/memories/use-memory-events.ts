import { useLiveUpdates } from '../../lib/live.ts';
import { type GalleryData, galleryQueryKey } from './api/get-memories.ts';
import { memoryQueryKey } from './api/get-memory.ts';
import { mergeMemories, removeMemory } from './memory-cache.ts';

/**
 * Keeps the gallery live: memories created or deleted anywhere are merged into the cached
 * pages by id (never twice), and each connect of the socket refetches what came before it.
 * `onDeleted` hears each deletion too (the open viewer closes on it).
 */
export function useMemoryEvents(onDeleted?: (id: string) => void): void {
  useLiveUpdates({
    on: {
      memoryCreated: ({ memory }, client) =>
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => mergeMemories(data, [memory])),
      memoryDeleted: ({ id }, client) => {
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => removeMemory(data, id));
        void client.invalidateQueries({ queryKey: memoryQueryKey(id) });
        onDeleted?.(id);
      },
    },
    refetchOnConnect: [galleryQueryKey],
  });
}
