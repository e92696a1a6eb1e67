import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type PollCreateRequest, pollSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { updatePollInLists } from './get-polls.ts';

/** POST /api/polls: a draft, with a speaker's token (their session) or the admin's. */
export const useCreatePoll = (token: string) =>
  useMutation({
    mutationFn: (poll: PollCreateRequest) =>
      apiCall(pollSchema, API_PATHS.polls, { method: 'POST', json: poll, token }),
    onSuccess: (poll, _variables, _result, { client }) => updatePollInLists(client, poll),
  });
