import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type QuestionCreateRequest, questionSchema } from '../../../../shared/schemas/question.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { useWithAttendeeToken } from '../../../lib/attendee-token.ts';
import { mergeQuestionIntoLists } from './get-questions.ts';
import { rememberOwnQuestion } from '../own-questions.ts';

/** POST /questions (spec: speakerId, speakerName, question, askerUsername). */
export const createQuestion = (request: QuestionCreateRequest, token: string | undefined) =>
  apiCall(questionSchema, API_PATHS.questionCreate, {
    method: 'POST',
    json: request,
    // The attendee token, when held: the limit on asking counts per attendee.
    token: token ?? null,
  });

/** Asks a question; the asker sees it in every open list at once, before the socket echoes it. */
export function useCreateQuestion() {
  const withToken = useWithAttendeeToken();
  return useMutation({
    mutationFn: (request: QuestionCreateRequest) =>
      withToken((token) => createQuestion(request, token)),
    onSuccess: (question, _variables, _result, { client }) => {
      rememberOwnQuestion(question);
      mergeQuestionIntoLists(client, question);
    },
  });
}
