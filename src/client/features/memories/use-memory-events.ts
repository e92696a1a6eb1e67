import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { memoryCreatedEventSchema, memoryDeletedEventSchema } from '../../../shared/events.ts';
import { withSocket } from '../../lib/socket.ts';
import { type GalleryData, galleryQueryKey } from './api/get-memories.ts';
import { memoryQueryKey } from './api/get-memory.ts';
import { mergeMemories, removeMemory } from './memory-cache.ts';

/**
 * Keeps the gallery live: memories created or deleted anywhere are merged into the cached
 * pages by id (never twice), and a reconnect refetches what may have been missed meanwhile.
 */
export function useMemoryEvents(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onCreated = (payload: unknown) => {
      const parsed = memoryCreatedEventSchema.safeParse(payload);
      if (!parsed.success) return;
      queryClient.setQueryData<GalleryData>(galleryQueryKey, (data) =>
        mergeMemories(data, [parsed.data.memory]),
      );
    };
    const onDeleted = (payload: unknown) => {
      const parsed = memoryDeletedEventSchema.safeParse(payload);
      if (!parsed.success) return;
      queryClient.setQueryData<GalleryData>(galleryQueryKey, (data) =>
        removeMemory(data, parsed.data.id),
      );
      void queryClient.invalidateQueries({ queryKey: memoryQueryKey(parsed.data.id) });
    };
    const onReconnect = () => {
      void queryClient.invalidateQueries({ queryKey: galleryQueryKey });
    };
    return withSocket((socket) => {
      socket.on('memoryCreated', onCreated);
      socket.on('memoryDeleted', onDeleted);
      socket.io.on('reconnect', onReconnect);
      return () => {
        socket.off('memoryCreated', onCreated);
        socket.off('memoryDeleted', onDeleted);
        socket.io.off('reconnect', onReconnect);
      };
    });
  }, [queryClient]);
}
