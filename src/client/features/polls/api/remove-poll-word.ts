import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { pollSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { updatePollInLists } from './get-polls.ts';

/**
 * DELETE /api/polls/:id/words/:text, with an owner's token: a word leaves the word cloud, now
 * and from later answers.
 */
export const useRemovePollWord = (token: string) =>
  useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) =>
      apiCall(pollSchema, API_PATHS.pollWord(id, text), { method: 'DELETE', token }),
    onSuccess: (poll, _variables, _result, { client }) => updatePollInLists(client, poll),
  });
