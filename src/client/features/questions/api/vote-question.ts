import { useLocalStorage } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { STORAGE_KEYS } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { questionResponseSchema } from '../../../../shared/schemas/question.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { useWithAttendeeToken } from '../../../lib/attendee-token.ts';
import { updateQuestionInLists } from './get-questions.ts';

/** Ids kept of the questions voted for: the most recent ones. */
const MAX_KEPT = 1000;

/** The questions this browser's attendee upvoted, kept in local storage. */
export const useVotedQuestions = () =>
  useLocalStorage<string[]>({
    key: STORAGE_KEYS.votedQuestions,
    defaultValue: [],
    getInitialValueInEffect: false,
  });

/** PUT (vote) or DELETE (take back) /api/questions/:id/vote, with the attendee token. */
export const voteQuestion = ({ id, on }: { id: string; on: boolean }, token: string | undefined) =>
  apiCall(questionResponseSchema, API_PATHS.questionVote(id), {
    method: on ? 'PUT' : 'DELETE',
    token: token ?? null,
  });

/** The thumb: votes or takes the vote back; every open list shows the new count at once. */
export function useVote() {
  const [, setVoted] = useVotedQuestions();
  const withToken = useWithAttendeeToken();
  return useMutation({
    mutationFn: (variables: { id: string; on: boolean }) =>
      withToken((token) => voteQuestion(variables, token)),
    onMutate: ({ id, on }) => {
      setVoted((ids) => {
        const rest = ids.filter((item) => item !== id);
        return on ? [...rest, id].slice(-MAX_KEPT) : rest;
      });
    },
    onError: (_error, { id, on }) => {
      setVoted((ids) => (on ? ids.filter((item) => item !== id) : [...ids, id]));
    },
    onSuccess: ({ question }, _variables, _result, { client }) => {
      updateQuestionInLists(client, question);
    },
  });
}
