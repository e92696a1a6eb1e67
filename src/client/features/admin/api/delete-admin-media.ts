import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import { apiCall } from '../../../lib/api-client.ts';

/** DELETE /api/media/:id */
export const deleteAdminMedia = (token: string, id: string): Promise<{ message: string }> =>
  apiCall(messageResponseSchema, API_PATHS.adminMediaItem(id), { method: 'DELETE', token });

/** Deletes one memory; the screen hides the tile first and shows it again if this fails. */
export const useDeleteAdminMedia = (token: string) =>
  useMutation({ mutationFn: (id: string) => deleteAdminMedia(token, id) });
