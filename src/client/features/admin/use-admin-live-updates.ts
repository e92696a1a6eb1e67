import { useLiveUpdates } from '../../lib/live.ts';
import { ADMIN_AUDIT_KEY } from './api/admin-audit.ts';
import {
  ADMIN_MEDIA_KEY,
  addToAdminMedia,
  removeFromAdminMedia,
  updateInAdminMedia,
} from './api/admin-media.ts';

/**
 * Keeps the moderation lists live: new memories appear and deleted ones go as the socket says
 * (merged by id), and each connect of the socket refetches what came before it.
 */
export function useAdminLiveUpdates(onDeleted: (id: string) => void): void {
  useLiveUpdates({
    on: {
      memoryCreated: ({ memory }, client) => addToAdminMedia(client, memory),
      memoryUpdated: ({ memory }, client) => {
        updateInAdminMedia(client, memory);
        addToAdminMedia(client, memory);
      },
      memoryDeleted: ({ id }, client) => {
        onDeleted(id);
        removeFromAdminMedia(client, id);
        void client.invalidateQueries({ queryKey: ADMIN_AUDIT_KEY });
      },
    },
    refetchOnConnect: [ADMIN_MEDIA_KEY],
  });
}
