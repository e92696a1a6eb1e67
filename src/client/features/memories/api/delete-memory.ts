import { type QueryClient, useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import type { OwnMemories } from '../../../../shared/schemas/memory.ts';
import { ApiError, apiCall } from '../../../lib/api-client.ts';
import { useWithAttendeeToken } from '../../../lib/attendee-token.ts';
import { removeMemory } from '../memory-cache.ts';
import { type GalleryData, galleryQueryKey } from './get-memories.ts';
import { memoryQueryKey } from './get-memory.ts';
import { ownMemoriesQueryKey } from './get-own-memories.ts';

/** DELETE /api/memories/:id with the attendee token: deletes one of the attendee's memories. */
export const deleteOwnMemory = (id: string, token: string | undefined) =>
  apiCall(messageResponseSchema, API_PATHS.ownMemory(id), {
    method: 'DELETE',
    token: token ?? null,
  });

/** Memories this browser deleted: their `memoryDeleted` is no news to it. */
const deletedHere = new Set<string>();
export const wasDeletedHere = (id: string): boolean => deletedHere.has(id);

/** Takes memories out of every cache of this browser: gallery pages, own ids, their pages. */
export function forgetMemories(client: QueryClient, ids: readonly string[]): void {
  for (const id of ids) {
    client.setQueryData<GalleryData>(galleryQueryKey, (data) => removeMemory(data, id));
    void client.invalidateQueries({ queryKey: memoryQueryKey(id) });
  }
  client.setQueryData<OwnMemories>(ownMemoriesQueryKey, (data) =>
    data ? { ids: data.ids.filter((id) => !ids.includes(id)) } : data,
  );
}

/**
 * Deletes memories of the attendee's own (a whole post from its tile, one memory from the
 * viewer), one call each; one already gone counts as deleted. Every open gallery and viewer
 * hears of each by socket.
 */
export function useDeleteOwnMemories() {
  const withToken = useWithAttendeeToken();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      for (const id of ids) {
        deletedHere.add(id);
        try {
          await withToken((token) => deleteOwnMemory(id, token));
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) {
            deletedHere.delete(id);
            throw error;
          }
        }
      }
      return ids;
    },
    onSettled: (_data, _error, ids, _result, { client }) => {
      forgetMemories(
        client,
        ids.filter((id) => deletedHere.has(id)),
      );
    },
  });
}
