import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { withMemoryEvents } from '../../lib/memory-events.ts';
import { ADMIN_AUDIT_KEY } from './api/admin-audit.ts';
import { ADMIN_MEDIA_KEY, addToAdminMedia, removeFromAdminMedia } from './api/admin-media.ts';

/**
 * Keeps the moderation lists live: new memories appear and deleted ones go as the socket says
 * (payloads are parsed, merged by id), and each connect of the socket refetches what came before.
 */
export function useAdminLiveUpdates(onDeleted: (id: string) => void): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      withMemoryEvents({
        created: (memory) => addToAdminMedia(queryClient, memory),
        deleted: (id) => {
          onDeleted(id);
          removeFromAdminMedia(queryClient, id);
          void queryClient.invalidateQueries({ queryKey: ADMIN_AUDIT_KEY });
        },
        connected: () => {
          void queryClient.invalidateQueries({ queryKey: ADMIN_MEDIA_KEY });
        },
      }),
    [queryClient, onDeleted],
  );
}
