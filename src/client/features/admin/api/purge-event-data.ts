import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { purgeResponseSchema } from '../../../../shared/schemas/admin.ts';
import { apiCall } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/purge with the event's name typed: every attendee's data goes. Every cached
 * list is read again (the `dataPurged` event does the same on every other screen).
 */
export const usePurgeEventData = (token: string) =>
  useMutation({
    mutationFn: (confirm: string) =>
      apiCall(purgeResponseSchema, API_PATHS.adminPurge, {
        method: 'POST',
        json: { confirm },
        token,
      }),
    onSuccess: (_answer, _confirm, _result, { client }) => void client.invalidateQueries(),
  });
