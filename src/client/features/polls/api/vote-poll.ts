import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type Poll,
  type PollVoteRequest,
  pollResponseSchema,
} from '../../../../shared/schemas/poll.ts';
import { ApiError, apiCall } from '../../../lib/api-client.ts';
import { useWithAttendeeToken } from '../../../lib/attendee-token.ts';
import { dropReadsInFlight } from '../../../lib/cached-lists.ts';
import { POLLS_KEY, updatePollInLists } from './get-polls.ts';

/** PUT /api/polls/:id/vote with the attendee token: the answer, which replaces any earlier one. */
export const votePoll = (id: string, answer: PollVoteRequest, token: string | undefined) =>
  apiCall(pollResponseSchema, API_PATHS.pollVote(id), {
    method: 'PUT',
    json: answer,
    token: token ?? null,
  });

export interface VoteVariables {
  poll: Poll;
  answer: PollVoteRequest;
}

/**
 * Answers a poll (or answers it again: the server keeps the last answer while it is open). The
 * poll as the answer left it goes into every list at once; a list read before the answer and
 * still on its way is dropped, so it cannot show the poll without it. A poll no longer open
 * (409) is read again, so the card turns to its results.
 */
export function useVotePoll() {
  const withToken = useWithAttendeeToken();
  return useMutation({
    mutationFn: ({ poll, answer }: VoteVariables) =>
      withToken((token) => votePoll(poll._id, answer, token)),
    onSuccess: ({ poll }, _variables, _result, { client }) => {
      dropReadsInFlight(client, POLLS_KEY);
      updatePollInLists(client, poll);
    },
    onError: (error, _variables, _result, { client }) => {
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) {
        void client.invalidateQueries({ queryKey: POLLS_KEY });
      }
    },
  });
}
