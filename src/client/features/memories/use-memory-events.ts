import { dropReadsInFlight } from '../../lib/cached-lists.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import { type GalleryData, galleryQueryKey } from './api/get-memories.ts';
import { memoryQueryKey } from './api/get-memory.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { mergeMemories, removeMemory, updateMemory } from './memory-cache.ts';
import { forgetOwnPending } from './own-pending.ts';

/**
 * Keeps the gallery live: memories created, approved, changed or deleted anywhere are merged
 * into the cached pages by id (never twice), and each connect of the socket refetches what came
 * before it. `onDeleted` hears each deletion too (the open viewer closes on it).
 */
export function useMemoryEvents(onDeleted?: (id: string) => void): void {
  useLiveUpdates({
    on: {
      memoryCreated: ({ memory }, client) => {
        if (memory.status !== 'published') return;
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => mergeMemories(data, [memory]));
      },
      // Approved (it goes in now, and is no longer its poster's pending one), or a new rendition.
      memoryUpdated: ({ memory }, client) => {
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => updateMemory(data, memory));
        if (memory.status === 'published') {
          forgetOwnPending([memory._id]);
          client.setQueryData<Memory>(memoryQueryKey(memory._id), (data) => data && memory);
        }
      },
      memoryDeleted: ({ id }, client) => {
        dropReadsInFlight(client, galleryQueryKey);
        client.setQueryData<GalleryData>(galleryQueryKey, (data) => removeMemory(data, id));
        forgetOwnPending([id]);
        void client.invalidateQueries({ queryKey: memoryQueryKey(id) });
        onDeleted?.(id);
      },
    },
    refetchOnConnect: [galleryQueryKey],
  });
}
