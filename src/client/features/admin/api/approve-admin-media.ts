import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Memory, memoryUpdateResponseSchema } from '../../../../shared/schemas/memory.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { removeFromAdminMedia, updateInAdminMedia } from './admin-media.ts';
import { isGone } from './errors.ts';

/** PATCH /api/media/:id `{ status: "published" }`: approves a memory awaiting approval. */
export const approveAdminMedia = async (token: string, id: string): Promise<Memory> =>
  (
    await apiCall(memoryUpdateResponseSchema, API_PATHS.adminMediaItem(id), {
      method: 'PATCH',
      json: { status: 'published' },
      token,
    })
  ).memory;

/**
 * Approves one memory; every cached moderation list shows it published at once, or drops it
 * when someone deleted it first.
 */
export const useApproveAdminMedia = (token: string) =>
  useMutation({
    mutationFn: (id: string) => approveAdminMedia(token, id),
    onSuccess: (memory, _id, _result, { client }) => updateInAdminMedia(client, memory),
    onError: (error, id, _result, { client }) => {
      if (isGone(error)) removeFromAdminMedia(client, id);
    },
  });
