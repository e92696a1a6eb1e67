import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type PollPatch, pollSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { updatePollInLists } from './get-polls.ts';

/**
 * PATCH /api/polls/:id, with an owner's token: its state (open, close, re-open) and whether its
 * results show at any time; its title, options, rating scale and a quiz's right options while a
 * draft.
 */
export const usePatchPoll = (token: string) =>
  useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: PollPatch }) =>
      apiCall(pollSchema, API_PATHS.poll(id), { method: 'PATCH', json: patch, token }),
    onSuccess: (poll, _variables, _result, { client }) => updatePollInLists(client, poll),
  });
