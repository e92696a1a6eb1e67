import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { memoryCreatedEventSchema, memoryDeletedEventSchema } from '../../../shared/events.ts';
import { withSocket } from '../../lib/socket.ts';
import { ADMIN_AUDIT_KEY } from './api/admin-audit.ts';
import { ADMIN_MEDIA_KEY, addToAdminMedia, removeFromAdminMedia } from './api/admin-media.ts';

/**
 * Keeps the moderation lists live: new memories appear and deleted ones go as the socket says
 * (payloads are parsed, merged by id), and a reconnect refetches what may have been missed.
 */
export function useAdminLiveUpdates(onDeleted: (id: string) => void): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const created = (payload: unknown) => {
      const parsed = memoryCreatedEventSchema.safeParse(payload);
      if (parsed.success) addToAdminMedia(queryClient, parsed.data.memory);
    };
    const deleted = (payload: unknown) => {
      const parsed = memoryDeletedEventSchema.safeParse(payload);
      if (!parsed.success) return;
      onDeleted(parsed.data.id);
      removeFromAdminMedia(queryClient, parsed.data.id);
      void queryClient.invalidateQueries({ queryKey: ADMIN_AUDIT_KEY });
    };
    const reconnected = () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_MEDIA_KEY });
    };
    return withSocket((socket) => {
      socket.on('memoryCreated', created);
      socket.on('memoryDeleted', deleted);
      socket.io.on('reconnect', reconnected);
      return () => {
        socket.off('memoryCreated', created);
        socket.off('memoryDeleted', deleted);
        socket.io.off('reconnect', reconnected);
      };
    });
  }, [queryClient, onDeleted]);
}
