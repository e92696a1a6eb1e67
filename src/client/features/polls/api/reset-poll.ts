import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { pollSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { updatePollInLists } from './get-polls.ts';

/** POST /api/polls/:id/reset, with an owner's token: every answer removed, its state kept. */
export const useResetPoll = (token: string) =>
  useMutation({
    mutationFn: (id: string) =>
      apiCall(pollSchema, API_PATHS.pollReset(id), { method: 'POST', token }),
    onSuccess: (poll, _id, _result, { client }) => updatePollInLists(client, poll),
  });
