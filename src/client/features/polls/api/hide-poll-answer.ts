import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { pollSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { updatePollInLists } from './get-polls.ts';

/**
 * PATCH /api/polls/:id/answers/:answerId, with an owner's token: an open answer hidden from the
 * results (or shown again).
 */
export const useHidePollAnswer = (token: string) =>
  useMutation({
    mutationFn: ({ id, answerId, hidden }: { id: string; answerId: string; hidden: boolean }) =>
      apiCall(pollSchema, API_PATHS.pollAnswer(id, answerId), {
        method: 'PATCH',
        json: { hidden },
        token,
      }),
    onSuccess: (poll, _variables, _result, { client }) => updatePollInLists(client, poll),
  });
