import { useLiveUpdates } from '../../lib/live.ts';
import { type GalleryData, galleryQueryKey } from './api/get-memories.ts';
import { memoryQueryKey } from './api/get-memory.ts';
import { mergeMemories, removeMemory, replaceMemory } from './memory-cache.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';

/**
 * Keeps the gallery live: memories created or deleted anywhere are merged into the cached
 * pages by id (never twice), and each connect of the socket refetches what came before it.
 */
export function useMemoryEvents(): void {
  useLiveUpdates({
    on: {
      memoryCreated: ({ memory }, client) =>
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => mergeMemories(data, [memory])),
      // A video's playable copy is ready (or a memory was approved): replaced where it is shown.
      memoryUpdated: ({ memory }, client) => {
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => replaceMemory(data, memory));
        client.setQueryData<Memory>(memoryQueryKey(memory._id), (known) =>
          known ? memory : known,
        );
      },
      memoryDeleted: ({ id }, client) => {
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => removeMemory(data, id));
        void client.invalidateQueries({ queryKey: memoryQueryKey(id) });
      },
    },
    refetchOnConnect: [galleryQueryKey],
  });
}
