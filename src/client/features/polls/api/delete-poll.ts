import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { removePollFromLists } from './get-polls.ts';

/** DELETE /api/polls/:id, with an owner's token: the poll and its answers go, for everyone. */
export const useDeletePoll = (token: string) =>
  useMutation({
    mutationFn: (id: string) =>
      apiCall(messageResponseSchema, API_PATHS.poll(id), { method: 'DELETE', token }),
    onSuccess: (_answer, id, _result, { client }) => removePollFromLists(client, id),
  });
