import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { ADMIN_AUDIT_KEY } from './admin-audit.ts';
import { removeFromAdminMedia } from './admin-media.ts';
import { isGone } from './errors.ts';

/** DELETE /api/media/:id */
export const deleteAdminMedia = (token: string, id: string): Promise<{ message: string }> =>
  apiCall(messageResponseSchema, API_PATHS.adminMediaItem(id), { method: 'DELETE', token });

/**
 * Deletes one memory. Once it is gone (deleted now, or by someone else first), it leaves every
 * cached moderation list and the moderation log is read again.
 */
export const useDeleteAdminMedia = (token: string) =>
  useMutation({
    mutationFn: (id: string) => deleteAdminMedia(token, id),
    onSettled: (_answer, error, id, _result, { client }) => {
      if (error && !isGone(error)) return;
      removeFromAdminMedia(client, id);
      void client.invalidateQueries({ queryKey: ADMIN_AUDIT_KEY });
    },
  });
